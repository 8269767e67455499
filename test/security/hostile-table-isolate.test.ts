import { describe, expect, test } from "vitest";
import { HOSTILE_ROWS, MAX_OVERRUN_MS, MAX_RSS_GROWTH_MB, runHostileRow } from "./hostile-table.ts";

// The in-process backend: what it bounds, what it survives, and the one row that ends the host (why the process backend exists).
describe("hostile blocks under the isolate (in-process) backend", () => {
  const rows = HOSTILE_ROWS.filter((row) => typeof row.inProcess === "string");
  test.for(rows)("$label ($inProcess)", async (row) => {
    const { outcome, exit } = await runHostileRow(row, "isolate", 2_000);
    expect(exit.noReport, `the runner printed no report within its time; its trail:\n${exit.trail}`).toBeUndefined();
    if (row.inProcess === "kills the process") {
      expect(outcome).toBeUndefined();
      expect(exit.signal ?? exit.code).not.toBe(0);
      return;
    }
    if (row.inProcess === "bounded" || row.inProcess === "survives") expect(exit).toEqual({ code: 0, signal: null, stillRunning: false });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ status: "final", answer: "recovered", companionStatus: "final", companionAnswer: 42 });
    expect(row.kinds).toContain(outcome!.blockError?.kind);
    if (row.inProcess === "bounded in time") expect(outcome!.blockError?.message).toMatch(/did not stop when (its time limit of \d+ ms ran out|it went over the memory limit of \d+ MB) and was abandoned/);
    if (row.inProcess === "bounded" || row.inProcess === "bounded in time") expect(outcome!.blockMs).toBeLessThan(row.timeoutMs + MAX_OVERRUN_MS);
    if (row.inProcess === "bounded") {
      expect(outcome!.rssGrowthMb).toBeLessThan(MAX_RSS_GROWTH_MB);
    }
  });
});
