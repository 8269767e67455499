import { describe, expect, test } from "vitest";
import { nlTool, runSession, ScriptedModel } from "../../src/index.ts";
import { ReminderStore } from "../../examples/reminders/reminder-store.ts";
import { createReminders } from "../../examples/reminders/reminders.ts";
import { js } from "../support/scripted-replies.ts";

/** A session whose model calls set_reminder by description once and answers with what it got back. */
async function callByDescription(description: string, translatorReply: string) {
  const store = new ReminderStore(":memory:");
  const { setReminder } = createReminders({ store, clock: { now: () => Date.parse("2026-03-01T00:00:00Z") } });
  const translator = new ScriptedModel([translatorReply]);
  const model = new ScriptedModel([js(`const r = set_reminder(${JSON.stringify(description)})\nFINAL(r)`)]);
  const result = await runSession({ question: "Set the reminder.", model, tools: [nlTool(setReminder, { model: translator })], subcalls: false, sandbox: { backend: "isolate" } });
  return { result, store, model, translator };
}

describe("nlTool: a tool offered by description in a session", () => {
  test("the model sees one description parameter; the translated call runs and its result says what it was translated to", async () => {
    const { result, store, model, translator } = await callByDescription("daily at 09:00 to check email", '{"message": "Check email", "schedule_type": "daily", "at": "09:00"}');
    expect(model.requests[0]!.messages[0]!.content).toContain("`set_reminder(description: string)`");
    expect(result.status).toBe("final");
    expect(result.answer).toMatch(/^\[Translated to: message="Check email", schedule_type="daily", at="09:00"\]\nReminder set: id=reminder_\w+, daily at 09:00; next at 2026-03-01T09:00:00.000Z\.$/);
    expect(translator.requests[0]!.messages[1]!.content).toBe("daily at 09:00 to check email");
    expect(store.list().map((reminder) => reminder.spec)).toEqual([{ message: "Check email", schedule_type: "daily", at: "09:00" }]);
  });

  test.each([
    ["a question from the translator is the result; the tool does not run", "remind me to call John", '{"error": "missing_info", "clarification_needed": "When should the reminder fire?"}', "[Translation needs clarification] When should the reminder fire? Call set_reminder again with a fuller description."],
    ["a translation that fails the schema is the result, inviting more detail", "every monday", '{"message": "Review", "schedule_type": "weekly", "at": "14:00"}', /^\[Translation failed\] the translation does not fit set_reminder's schema: .*day_of_week.* Describe the call again/],
    ["unreadable output is the result, quoted", "daily", "I would set it daily.", /^\[Translation failed\] set_reminder: the translator's answer is not JSON.*The translator answered: I would set it daily\.$/],
  ])("%s", async (_label, description, reply, expected) => {
    const { result, store } = await callByDescription(description, reply);
    if (typeof expected === "string") expect(result.answer).toBe(expected);
    else expect(result.answer).toMatch(expected);
    expect(store.list()).toEqual([]);
  });

  test("an array runs one call per element in order; a bad element is skipped with a notice", async () => {
    const reply = JSON.stringify([{ message: "Email", schedule_type: "daily", at: "09:00" }, { message: "Pulse", schedule_type: "weekly", at: "14:00" }, { message: "Report", schedule_type: "monthly", at: "09:00", day_of_month: 1 }]);
    const { result, store } = await callByDescription("email daily at 9, pulse weekly, report on the 1st", reply);
    const parts = String(result.answer).split("\n---\n");
    expect(parts).toHaveLength(3);
    expect(parts[0]).toMatch(/^\[Translated to: message="Email"/);
    expect(parts[1]).toMatch(/^\[Translated to: message="Report"/);
    expect(parts[2]).toMatch(/^\[Skipped part 2 of the translation: set_reminder: missing required argument 'day_of_week'/);
    expect(store.list().map((reminder) => reminder.spec.message)).toEqual(["Email", "Report"]);
  });
});
