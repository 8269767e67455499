import { describe, expect, test } from "vitest";
import { createJsonProtocol, createTaggedProtocol, nlTool, runSession, ScriptedModel, type SessionEvent } from "../../src/index.ts";
import { ReminderStore } from "../../examples/reminders/reminder-store.ts";
import { createReminders } from "../../examples/reminders/reminders.ts";
import { createNativeProtocol } from "../../src/protocols/native/index.ts";
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

describe("runSession({ nlTools }): a tool offered by description in every protocol", () => {
  test.each([
    ["code", undefined, js('const r = set_reminder("daily at 09:00 to check email")\nprint(r)')],
    ["json", createJsonProtocol(), '```json\n{"tool": "set_reminder", "arguments": {"description": "daily at 09:00 to check email"}}\n```'],
    ["tagged", createTaggedProtocol(), '<set_reminder>{"description": "daily at 09:00 to check email"}</set_reminder>'],
    ["native", createNativeProtocol(), { toolCalls: [{ name: "set_reminder", arguments: { description: "daily at 09:00 to check email" } }] }],
  ] as const)("%s: the model sees one description parameter; the translator (the sub-model by default) expands it; the result says what it became", async (_label, protocol, call) => {
    const store = new ReminderStore(":memory:");
    const { setReminder } = createReminders({ store, clock: { now: () => Date.parse("2026-03-01T00:00:00Z") } });
    const subModel = new ScriptedModel(['{"message": "Check email", "schedule_type": "daily", "at": "09:00"}'], { modelId: "sub" });
    const model = new ScriptedModel([call, protocol ? "Done: the reminder is set." : js('FINAL("Done: the reminder is set.")')]);
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "Remind me daily at nine to check email.", model, subModel, tools: [setReminder], nlTools: ["set_reminder"], subcalls: false, ...(protocol ? { protocol } : {}), sandbox: { backend: "isolate" }, onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ status: "final", answer: "Done: the reminder is set." });
    // What the model is shown of the tool: the system prompt, and for native the request's tools.
    const shown = model.requests[0]!.messages[0]!.content + JSON.stringify(model.requests[0]!.tools ?? []);
    expect(shown).toContain("description");
    expect(shown).not.toContain("schedule_type");
    if (protocol?.name === "native") expect(model.requests[0]!.tools!.find((tool) => tool.name === "set_reminder")!.parameters).toMatchObject({ properties: { description: { type: "string" } }, required: ["description"] });
    expect(model.requests[1]!.messages.map((message) => message.content).join("\n")).toContain('[Translated to: message="Check email", schedule_type="daily", at="09:00"]\\nReminder set: id=reminder_'.replace("\\n", "\n"));
    expect(store.list().map((reminder) => reminder.spec.at)).toEqual(["09:00"]);
    expect(subModel.requests[0]!.messages[0]!.content).toContain('"schedule_type"');
    expect(events.filter((event) => event.type === "translation")).toMatchObject([{ tool: "set_reminder", model: "sub", status: "translated", calls: ['message="Check email", schedule_type="daily", at="09:00"'], skipped: 0 }]);
    expect(result.usage.byModel.sub!.modelCalls).toBe(1);
  });

  test("tools defined with nl are offered by description unless nlTools is false; a name no tool has is refused", async () => {
    const store = new ReminderStore(":memory:");
    const { setReminder } = createReminders({ store });
    const shown = async (nlTools?: boolean | string[]) => {
      const model = new ScriptedModel([js("FINAL(1)")]);
      await runSession({ question: "q", model, tools: [setReminder], subcalls: false, sandbox: { backend: "isolate" }, ...(nlTools !== undefined ? { nlTools } : {}) });
      return model.requests[0]!.messages[0]!.content.includes("set_reminder(description: string)");
    };
    expect(await shown()).toBe(true);
    expect(await shown(false)).toBe(false);
    await expect(runSession({ question: "q", model: new ScriptedModel([]), tools: [setReminder], nlTools: ["set_alarm"] })).rejects.toMatchObject({ name: "InvalidOptionsError", option: "nlTools" });
  });

  test("a translator call refused by the budget is a failed translation, not a crash", async () => {
    const store = new ReminderStore(":memory:");
    const { setReminder } = createReminders({ store });
    const model = new ScriptedModel([js('const r = set_reminder("daily at 9")\nFINAL(r)')]);
    const result = await runSession({ question: "q", model, tools: [setReminder], subcalls: false, budget: { maxModelCalls: 1 }, sandbox: { backend: "isolate" } });
    expect(result.answer).toMatch(/^\[Translation failed\] set_reminder: the translator was not called: budget exceeded \(maxModelCalls\)/);
    expect(store.list()).toEqual([]);
  });
});
