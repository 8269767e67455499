import { describe, expect, test } from "vitest";
import { HOSTILE_ROWS, MAX_OVERRUN_MS, MAX_RSS_GROWTH_MB, runHostileRow } from "./hostile-table.ts";

describe("hostile blocks under the process backend", () => {
  test.for(HOSTILE_ROWS)("$label: ends its block with a clear error within its limits; both sessions finish; the host exits by itself", async (row) => {
    const { outcome, exit } = await runHostileRow(row, "process");
    expect(exit.noReport, `the runner printed no report within its time; its trail:\n${exit.trail}`).toBeUndefined();
    // Nothing keeps the host alive once the sessions are done (the runner does not call exit).
    expect(exit, "the host process ended by itself").toEqual({ code: 0, signal: null, stillRunning: false });
    expect(outcome).toBeDefined();
    const report = outcome!;
    expect(row.kinds).toContain(report.blockError?.kind);
    expect(report.blockError?.message.length).toBeGreaterThan(20);
    expect(report, JSON.stringify(report)).toMatchObject({ status: "final", answer: "recovered", companionStatus: "final", companionAnswer: 42 });
    expect(report.blockMs).toBeLessThan(row.timeoutMs + MAX_OVERRUN_MS);
    expect(report.rssGrowthMb).toBeLessThan(row.maxRssGrowthMb ?? MAX_RSS_GROWTH_MB);
  });
});
