import { describe, expect, test } from "vitest";
import { defineTool, runSession, ScriptedModel, translateToolCall, TRANSLATOR_OUTPUT_CLIP, UsageLedger, withTranslationNote } from "../../src/index.ts";
import { createBackgroundScheduler, createBackgroundTools } from "../../src/background/index.ts";
import { js } from "../support/scripted-replies.ts";
import { ReminderStore } from "../../examples/reminders/reminder-store.ts";
import { createReminders } from "../../examples/reminders/reminders.ts";

const store = new ReminderStore(":memory:");
const { setReminder } = createReminders({ store, clock: { now: () => Date.parse("2026-03-01T00:00:00Z") } });

/** Translates `description` with a translator that answers `reply`. */
async function translate(description: string, reply: string) {
  const model = new ScriptedModel([reply]);
  const result = await translateToolCall({ tool: setReminder, description, model });
  return { result, model };
}

describe("translateToolCall: the reference design's examples (set_reminder)", () => {
  test.each([
    ["daily", "daily at 09:00 to check email", { message: "Check email", schedule_type: "daily", at: "09:00" }, 'message="Check email", schedule_type="daily", at="09:00"'],
    ["once, with an ISO time", "once on 2026-03-15 at 10:00 — dentist appointment", { message: "Dentist appointment", schedule_type: "once", at: "2026-03-15T10:00:00" }, 'message="Dentist appointment", schedule_type="once", at="2026-03-15T10:00:00"'],
    ["weekly", "every Monday at 14:00 to review pulse", { message: "Review pulse", schedule_type: "weekly", at: "14:00", day_of_week: "mon" }, 'message="Review pulse", schedule_type="weekly", at="14:00", day_of_week="mon"'],
    ["monthly", "1st of every month at 09:00 send monthly report", { message: "Send monthly report", schedule_type: "monthly", at: "09:00", day_of_month: 1 }, 'message="Send monthly report", schedule_type="monthly", at="09:00", day_of_month=1'],
    [
      "interval with a window and an ai_prompt",
      "every hour between 08:00 and 18:00 check server status and alert if down",
      { message: "Check server status", schedule_type: "interval", interval_seconds: 3600, window_start: "08:00", window_end: "18:00", ai_prompt: "Check server status; alert if down." },
      'message="Check server status", schedule_type="interval", interval_seconds=3600, window_start="08:00", window_end="18:00", ai_prompt="Check server status; alert if down."',
    ],
  ])("%s", async (_label, description, args, summary) => {
    const { result, model } = await translate(description, JSON.stringify(args));
    expect(result).toMatchObject({ status: "translated", calls: [{ arguments: args, summary }], skipped: [] });
    // The translator saw the real schema (the if/then rules too), the examples, and the description as the user message.
    const [system, user] = model.requests[0]!.messages;
    expect(system!.content).toContain(JSON.stringify(setReminder.parameters, null, 2));
    expect(system!.content).toContain('"if"');
    expect(system!.content).toContain('User: remind me to call John\nOutput: {"error":"missing_info"');
    expect(user).toEqual({ role: "user", content: description });
  });

  test("the ambiguous 'remind me to call John' comes back as a question", async () => {
    const { result } = await translate("remind me to call John", '{"error": "missing_info", "clarification_needed": "When should the reminder fire?"}');
    expect(result).toMatchObject({ status: "clarify", question: "When should the reminder fire?" });
  });

  test("the result the main model sees starts with the translation summary", () => {
    expect(withTranslationNote('schedule_type="daily", at="09:00"', "Reminder set")).toBe('[Translated to: schedule_type="daily", at="09:00"]\nReminder set');
    expect(withTranslationNote("a=1", { id: 7 })).toBe('[Translated to: a=1]\n{"id":7}');
  });
});

describe("translateToolCall: what the translator may get wrong", () => {
  const daily = '{"message": "Check email", "schedule_type": "daily", "at": "09:00"}';
  test.each([
    ["a ```json fence around the JSON", "```json\n" + daily + "\n```"],
    ["a bare ``` fence", "```\n" + daily + "\n```"],
    ["reasoning before the JSON", "<think>daily, so at is HH:MM</think>\n" + daily],
    ["single quotes and a trailing comma (repaired)", "{'message': 'Check email', 'schedule_type': 'daily', 'at': '09:00',}"],
  ])("tolerated: %s", async (_label, reply) => {
    const { result } = await translate("daily at 09:00 to check email", reply);
    expect(result).toMatchObject({ status: "translated", calls: [{ arguments: { schedule_type: "daily", at: "09:00" } }] });
  });

  test.each([
    ["prose, not JSON", "Sure! I'd set a daily reminder at nine.", /not JSON/],
    ["a JSON string", '"daily at 9"', /not a JSON object/],
    ["an empty reply", "   ", /answered with nothing/],
    ["an empty array", "[]", /empty array/],
  ])("failed, with the raw output: %s", async (_label, reply, problem) => {
    const { result } = await translate("daily at 9", reply);
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.error).toMatch(problem);
    expect(result.error).toContain("Describe the call again");
    expect(result.error).toContain(`The translator answered: ${reply.trim()}`);
  });

  test("an answer cut at the token limit fails rather than being completed by repair", async () => {
    const model = new ScriptedModel([{ text: '{"message": "Check email", "schedule_type": "daily", "at": "09:0', finishReason: "length" }]);
    const result = await translateToolCall({ tool: setReminder, description: "daily at 9", model, maxTokens: 20 });
    expect(result).toMatchObject({ status: "failed", error: expect.stringContaining("set_reminder: the translator's answer was cut at 20 tokens. Describe the call more briefly.") });
  });

  test("a long unreadable answer is quoted clipped", async () => {
    const reply = "x".repeat(5_000);
    const { result } = await translate("daily at 9", reply);
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.error).toContain("x".repeat(TRANSLATOR_OUTPUT_CLIP) + "… [cut: 5,000 characters in all]");
    expect(result.error).not.toContain("x".repeat(TRANSLATOR_OUTPUT_CLIP + 1));
    expect(result.raw).toBe(reply);
  });

  test.each([
    ["weekly without its day (a conditional requirement)", { message: "Review", schedule_type: "weekly", at: "14:00" }, /missing required argument 'day_of_week'/],
    ["daily with an ISO time", { message: "Email", schedule_type: "daily", at: "2026-03-15T09:00:00" }, /at must match pattern/],
    ["interval with a field only once uses", { message: "Ping", schedule_type: "interval", interval_seconds: 600, at: "09:00" }, /schema: set_reminder: at /],
    ["a window without its end", { message: "Ping", schedule_type: "interval", interval_seconds: 600, window_start: "08:00" }, /must have property window_end/],
    ["an unknown property", { message: "Email", schedule_type: "daily", at: "09:00", repeat: true }, /unknown argument 'repeat'/],
  ])("a translation that fails the schema is refused: %s", async (_label, args, named) => {
    const { result } = await translate("something", JSON.stringify(args));
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.error).toContain("does not fit set_reminder's schema");
    expect(result.error).toMatch(named);
    expect(result.error).not.toContain("..");
  });

  test("a failed translator call is a failed result, not a rejection", async () => {
    const model = new ScriptedModel([
      () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:11434");
      },
    ]);
    const result = await translateToolCall({ tool: setReminder, description: "daily at 9", model });
    expect(result).toMatchObject({ status: "failed" });
    if (result.status === "failed") expect(result.error).toMatch(/translator call failed \(connect ECONNREFUSED 127\.0\.0\.1:11434\)/);
  });

  test("an aborted translator call says it was stopped", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await translateToolCall({ tool: setReminder, description: "daily at 9", model: new ScriptedModel(["{}"]), signal: controller.signal });
    expect(result).toMatchObject({ status: "failed", error: expect.stringContaining("it was stopped") });
  });

  test("an array is one call per element in order; bad elements are skipped with the reason", async () => {
    const reply = JSON.stringify([
      { message: "Email", schedule_type: "daily", at: "09:00" },
      { message: "Review", schedule_type: "weekly", at: "14:00" },
      "not an object",
      { message: "Report", schedule_type: "monthly", at: "09:00", day_of_month: 1 },
    ]);
    const { result } = await translate("email daily at 9, review weekly, report monthly", reply);
    expect(result.status).toBe("translated");
    if (result.status !== "translated") return;
    expect(result.calls.map((call) => call.arguments.message)).toEqual(["Email", "Report"]);
    expect(result.skipped.map((skip) => skip.index)).toEqual([1, 2]);
    expect(result.skipped[0]!.error).toContain("day_of_week");
  });

  test("an array of nothing but bad elements fails", async () => {
    const { result } = await translate("x", JSON.stringify([{ message: "a" }, { schedule_type: "daily" }]));
    expect(result.status).toBe("failed");
    if (result.status === "failed") expect(result.error).toMatch(/element 0: .*element 1: /);
  });

  test("an empty description is refused without a translator call", async () => {
    const model = new ScriptedModel([]);
    const result = await translateToolCall({ tool: setReminder, description: "  ", model });
    expect(result.status).toBe("failed");
    expect(model.requests).toHaveLength(0);
  });

  test("examples passed to the call follow the tool's own in the prompt", async () => {
    const model = new ScriptedModel(['{"message": "Stretch", "schedule_type": "daily", "at": "15:00"}']);
    await translateToolCall({ tool: setReminder, description: "stretch daily at 3pm", model, examples: [{ description: "stand up daily at 11", output: { message: "Stand up", schedule_type: "daily", at: "11:00" } }] });
    const system = model.requests[0]!.messages[0]!.content;
    expect(system.indexOf("User: stand up daily at 11")).toBeGreaterThan(system.indexOf("User: remind me to call John"));
  });
});

describe("defineTool({ nl })", () => {
  const parameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false } as const;
  test("accepts nl: true and examples that fit the schema, an array of calls, or a question", () => {
    expect(defineTool({ name: "weather", description: "d", parameters: { ...parameters, required: ["city"] }, handler: () => null, nl: true }).nl).toBe(true);
    const tool = defineTool({
      name: "weather",
      description: "d",
      parameters: { ...parameters, required: ["city"] },
      handler: () => null,
      nl: { examples: [{ description: "Paris", output: { city: "Paris" } }, { description: "Paris and Rome", output: [{ city: "Paris" }, { city: "Rome" }] }, { description: "somewhere", output: { error: "missing_info", clarification_needed: "Which city?" } }] },
    });
    expect(tool.nl).toMatchObject({ examples: { length: 3 } });
  });

  test("refuses an example whose output breaks the schema, naming it", () => {
    expect(() =>
      defineTool({ name: "weather", description: "d", parameters: { ...parameters, required: ["city"] }, handler: () => null, nl: { examples: [{ description: "Paris", output: { town: "Paris" } }] } }),
    ).toThrow(/nl\.examples\[0\] \("Paris"\) does not fit the schema: .*city/);
  });
});

describe("translateToolCall: spawn_sub_session, an array with depends_on_previous", () => {
  test("each element becomes one call in order; run in order, the second waits for the first", async () => {
    const started: { objective: string; context: unknown }[] = [];
    const scheduler = createBackgroundScheduler({
      ledger: new UsageLedger(),
      signal: new AbortController().signal,
      startChild: async (request) => {
        started.push({ objective: request.question, context: request.context });
        return runSession({ question: request.question, ...(request.context !== undefined ? { context: request.context } : {}), model: new ScriptedModel([js(`FINAL(${JSON.stringify(`done: ${request.question.slice(0, 5)}`)})`)]), subcalls: false, sandbox: { backend: "isolate" } });
      },
    });
    const [spawn, wait] = createBackgroundTools(scheduler);
    const translator = new ScriptedModel([
      JSON.stringify([
        { objective: "Research the asyncio docs and write a cheatsheet.", depends_on_previous: false },
        { objective: "Review the cheatsheet in your context and add three examples.", depends_on_previous: true },
      ]),
    ]);
    const result = await translateToolCall({ tool: spawn, description: "research the asyncio docs and write a cheatsheet, then after that's done, review it and add three examples", model: translator });
    expect(result.status).toBe("translated");
    if (result.status !== "translated") return;
    expect(result.calls.map((call) => call.summary)).toEqual([
      'objective="Research the asyncio docs and write a cheatsheet.", depends_on_previous=false',
      'objective="Review the cheatsheet in your context and add three examples.", depends_on_previous=true',
    ]);
    const context = { sessionId: "root", signal: new AbortController().signal };
    const outputs = [];
    for (const call of result.calls) outputs.push(await spawn.handler(call.arguments, context));
    expect(outputs).toMatchObject([{ started: ["task_1"] }, { started: ["task_2"] }]);
    expect(await wait.handler({}, context)).toEqual({
      tasks: [
        { id: "task_1", state: "done", answer: "done: Resea" },
        { id: "task_2", state: "done", depends_on: ["task_1"], answer: "done: Revie" },
      ],
      pending: [],
    });
    expect(started[1]).toEqual({ objective: "Review the cheatsheet in your context and add three examples.", context: { task_1: "done: Resea" } });
    // The translator was shown spawn_sub_session's real schema.
    expect(translator.requests[0]!.messages[0]!.content).toContain('"depends_on_previous": {');
  });
});
