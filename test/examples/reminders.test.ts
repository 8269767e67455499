import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import { runSession, ScriptedModel, translateToolCall, type Tool } from "../../src/index.ts";
import type { ReminderSpec } from "../../examples/reminders/reminder-schema.ts";
import { ReminderStore } from "../../examples/reminders/reminder-store.ts";
import { createReminders } from "../../examples/reminders/reminders.ts";
import { js } from "../support/scripted-replies.ts";

const START = Date.parse("2026-03-01T00:00:00Z"); // a Sunday
const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");
const context = { sessionId: "test", signal: new AbortController().signal };

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store, a clock moved by hand, and a loop that jumps from one due time to the next. */
function harness(path = ":memory:", startMs = START, options: { utcOffsetMinutes?: number; aiSession?: Parameters<typeof createReminders>[0]["aiSession"] } = {}) {
  const clock = { now: startMs };
  const store = new ReminderStore(path);
  const reminders = createReminders({ store, clock: { now: () => clock.now }, ...options });
  const call = (tool: Tool, args: Record<string, unknown>) => tool.handler(args, context);
  const runUntil = async (endMs: number) => {
    for (let next = store.nextDue(); next !== undefined && next <= endMs; next = store.nextDue()) {
      clock.now = next;
      await reminders.fireDue();
    }
  };
  return { clock, store, reminders, call, runUntil };
}

describe("set_reminder: schedules fire at the right times (injected clock)", () => {
  test.each([
    ["daily at 09:00", { message: "Email", schedule_type: "daily", at: "09:00" }, 3, ["2026-03-01T09:00:00Z", "2026-03-02T09:00:00Z", "2026-03-03T09:00:00Z"]],
    ["once, at an ISO time", { message: "Dentist", schedule_type: "once", at: "2026-03-15T10:00:00" }, 40, ["2026-03-15T10:00:00Z"]],
    ["once, at an ISO time with a zone", { message: "Call", schedule_type: "once", at: "2026-03-02T10:00:00+02:00" }, 5, ["2026-03-02T08:00:00Z"]],
    ["weekly on Monday at 14:00", { message: "Pulse", schedule_type: "weekly", at: "14:00", day_of_week: "mon" }, 15, ["2026-03-02T14:00:00Z", "2026-03-09T14:00:00Z"]],
    ["monthly on the 31st: the last day of a shorter month", { message: "Report", schedule_type: "monthly", at: "09:00", day_of_month: 31 }, 62, ["2026-03-31T09:00:00Z", "2026-04-30T09:00:00Z"]],
    ["every 4 hours inside 08:00-18:00", { message: "Servers", schedule_type: "interval", interval_seconds: 14_400, window_start: "08:00", window_end: "18:00" }, 2, ["2026-03-01T08:00:00Z", "2026-03-01T12:00:00Z", "2026-03-01T16:00:00Z", "2026-03-02T08:00:00Z", "2026-03-02T12:00:00Z", "2026-03-02T16:00:00Z"]],
    ["every 8 hours inside a window across midnight (22:00-06:00)", { message: "Night", schedule_type: "interval", interval_seconds: 28_800, window_start: "22:00", window_end: "06:00" }, 3, ["2026-03-01T22:00:00Z", "2026-03-02T00:00:00Z", "2026-03-02T22:00:00Z", "2026-03-03T00:00:00Z"]],
  ] as const)("%s", async (_label, spec, days, expected) => {
    const { store, reminders, call, runUntil } = harness();
    expect(await call(reminders.setReminder, spec)).toMatch(/^Reminder set: id=reminder_/);
    await runUntil(START + days * 86_400_000);
    expect(store.firings().map((firing) => iso(firing.dueAt)).slice(0, expected.length)).toEqual(expected);
    if (spec.schedule_type === "once") expect(store.list()[0]!.nextFireAt).toBeNull();
  });
});

describe("set_reminder: the rest of its behaviour", () => {
  test("clock times are read at the store's UTC offset", async () => {
    const { store, reminders, call, runUntil } = harness(":memory:", START, { utcOffsetMinutes: 120 });
    await call(reminders.setReminder, { message: "Email", schedule_type: "daily", at: "09:00" });
    await runUntil(START + 86_400_000);
    expect(iso(store.firings()[0]!.dueAt)).toBe("2026-03-01T07:00:00Z");
  });

  test("a time that has passed is refused as data", async () => {
    const { reminders, call, store } = harness();
    expect(await call(reminders.setReminder, { message: "Late", schedule_type: "once", at: "2026-02-01T10:00:00" })).toEqual({ error: "2026-02-01T10:00:00 has already passed; give a time in the future." });
    expect(store.list()).toEqual([]);
  });

  test("after days without a check, a missed reminder fires once and moves to its next time", async () => {
    const { clock, store, reminders, call } = harness();
    await call(reminders.setReminder, { message: "Email", schedule_type: "daily", at: "09:00" });
    clock.now = Date.parse("2026-03-04T12:00:00Z");
    expect((await reminders.fireDue()).map((firing) => iso(firing.dueAt))).toEqual(["2026-03-01T09:00:00Z"]);
    expect(iso(store.list()[0]!.nextFireAt!)).toBe("2026-03-05T09:00:00Z");
    expect(await reminders.fireDue()).toEqual([]);
  });

  test("list_reminders and cancel_reminder, as tools in a session", async () => {
    const { reminders, call, store } = harness();
    const set = String(await call(reminders.setReminder, { message: "Email", schedule_type: "daily", at: "09:00" }));
    const id = /id=(reminder_\w+)/.exec(set)![1]!;
    const model = new ScriptedModel([
      js("const all = list_reminders()\nprint(JSON.stringify(all))"),
      js(`const gone = cancel_reminder(${JSON.stringify(id)})\nconst again = cancel_reminder(${JSON.stringify(id)})\nFINAL([gone, again])`),
    ]);
    const result = await runSession({ question: "Cancel the email reminder.", model, tools: reminders.tools, subcalls: false, sandbox: { backend: "isolate" } });
    expect(model.requests[1]!.messages.at(-1)!.content).toContain(`"id":"${id}","message":"Email","schedule":"daily at 09:00","next":"2026-03-01T09:00:00.000Z"`);
    expect(result.answer).toEqual([`Cancelled ${id}.`, { error: `no active reminder has the id '${id}'; list_reminders() shows them.` }]);
    expect(store.list()).toEqual([]);
    expect(store.list({ includeCancelled: true })).toMatchObject([{ id, cancelled: true }]);
  });

  test("a translated description sets a reminder that fires", async () => {
    const { reminders, store, call, runUntil } = harness();
    const translated = await translateToolCall({ tool: reminders.setReminder, description: "every Monday at 14:00 to review pulse", model: new ScriptedModel(['{"message": "Review pulse", "schedule_type": "weekly", "at": "14:00", "day_of_week": "mon"}']) });
    if (translated.status !== "translated") throw new Error(JSON.stringify(translated));
    await call(reminders.setReminder, translated.calls[0]!.arguments);
    await runUntil(START + 8 * 86_400_000);
    expect(store.firings().map((firing) => [firing.message, iso(firing.dueAt)])).toEqual([["Review pulse", "2026-03-02T14:00:00Z"]]);
  });
});

describe("reminders survive a restart (the SQLite file)", () => {
  test("a reminder set before a restart fires after it, and its firings and cancellations stay", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rlmkit-reminders-"));
    scratch.push(dir);
    const path = join(dir, "reminders.sqlite");

    const first = harness(path);
    await first.call(first.reminders.setReminder, { message: "Email", schedule_type: "daily", at: "09:00" });
    const weekly = String(await first.call(first.reminders.setReminder, { message: "Pulse", schedule_type: "weekly", at: "14:00", day_of_week: "mon" }));
    first.store.close();

    const second = harness(path, Date.parse("2026-03-01T08:00:00Z"));
    expect(second.store.list().map((reminder) => reminder.spec.message)).toEqual(["Email", "Pulse"]);
    await second.runUntil(Date.parse("2026-03-01T23:00:00Z"));
    expect(second.store.firings().map((firing) => iso(firing.firedAt))).toEqual(["2026-03-01T09:00:00Z"]);
    expect(second.store.cancel(/id=(reminder_\w+)/.exec(weekly)![1]!)).toBe(true);
    second.store.close();

    const third = harness(path, Date.parse("2026-03-02T00:00:00Z"));
    expect(third.store.list().map((reminder) => [reminder.spec.message, iso(reminder.nextFireAt!)])).toEqual([["Email", "2026-03-02T09:00:00Z"]]);
    expect(third.store.firings()).toHaveLength(1);
    await third.runUntil(Date.parse("2026-03-03T00:00:00Z"));
    expect(third.store.firings().map((firing) => [firing.message, iso(firing.dueAt)])).toEqual([["Email", "2026-03-01T09:00:00Z"], ["Email", "2026-03-02T09:00:00Z"]]);
    third.store.close();
  });
});

describe("ai_prompt: a firing reminder runs an rlmkit session", () => {
  test("the session gets the prompt as its question; its answer is recorded with the firing", async () => {
    const model = new ScriptedModel([(request) => js(`FINAL(${JSON.stringify(`checked: ${request.messages.at(-1)!.content.split("\n")[0]!.length} chars`)})`), js('FINAL("checked again")')]);
    const { store, reminders, call, runUntil } = harness(":memory:", START, { aiSession: { model, subcalls: false, sandbox: { backend: "isolate" } } });
    const spec: ReminderSpec = { message: "Check servers", schedule_type: "interval", interval_seconds: 3_600, window_start: "08:00", window_end: "10:00", ai_prompt: "Check the server status and answer with what is down." };
    await call(reminders.setReminder, { ...spec });
    await call(reminders.setReminder, { message: "Email", schedule_type: "daily", at: "08:30" });
    await runUntil(Date.parse("2026-03-01T10:00:00Z"));
    expect(store.firings().map((firing) => [iso(firing.dueAt), firing.message, firing.sessionStatus ?? null, firing.answer ?? null])).toEqual([
      ["2026-03-01T08:00:00Z", "Check servers", "final", expect.stringMatching(/^checked: \d+ chars$/)],
      ["2026-03-01T08:30:00Z", "Email", null, null],
      ["2026-03-01T09:00:00Z", "Check servers", "final", "checked again"],
    ]);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]!.messages.at(-1)!.content).toContain("Check the server status and answer with what is down.");
    expect(model.requests[0]!.messages.at(-1)!.content).toContain('the reminder "Check servers" fired at 2026-03-01T08:00:00.000Z');
  });
});

describe("the example program", () => {
  test("`main.ts demo` sets reminders by description and fires them over two simulated days", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["examples/reminders/main.ts", "demo"], { timeout: 30_000 });
    expect(stdout).toContain('[Translated to: message="Check email", schedule_type="daily", at="09:00"]');
    expect(stdout).toContain("The translator asks: When should the reminder fire?");
    expect(stdout).toContain("2026-03-15T10:00:00.000Z  Dentist appointment (once at 2026-03-15T10:00:00)");
    expect(stdout).toMatch(/Check server status .* → session answered "0 services down"/);
  });
});
