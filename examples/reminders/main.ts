// The set_reminder example program. Run from the repository:
//   npx node examples/reminders/main.ts demo                 offline: a scripted translator, two simulated days
//   npx node examples/reminders/main.ts add "daily at 09:00 to check email"
//   npx node examples/reminders/main.ts list
//   npx node examples/reminders/main.ts cancel reminder_1a2b3c4d
//   npx node examples/reminders/main.ts run                  fires reminders as they come due (Ctrl-C stops)
// add and run talk to an OpenAI-compatible server: OPENAI_BASE_URL, RLMKIT_MODEL (and
// RLMKIT_TRANSLATOR_MODEL for the translator, default RLMKIT_MODEL). Reminders are kept in
// RLMKIT_REMINDERS_DB (default ./reminders.sqlite).
import { OpenAICompatibleModel, ScriptedModel, translateToolCall, withTranslationNote, type ModelClient } from "../../src/index.ts";
import { ReminderStore } from "./reminder-store.ts";
import { createReminders, describeSchedule, type Clock } from "./reminders.ts";

const [command, ...rest] = process.argv.slice(2);
const print = (line: string): void => void process.stdout.write(`${line}\n`);

async function addReminder(store: ReminderStore, translator: ModelClient, description: string, clock?: Clock): Promise<void> {
  const { setReminder } = createReminders({ store, ...(clock ? { clock } : {}) });
  const result = await translateToolCall({ tool: setReminder, description, model: translator });
  if (result.status === "clarify") return print(`The translator asks: ${result.question}`);
  if (result.status === "failed") return print(`Not set: ${result.error}`);
  for (const call of result.calls) {
    const output = await setReminder.handler(call.arguments, { sessionId: "reminders", signal: new AbortController().signal });
    print(withTranslationNote(call.summary, output));
  }
  for (const skip of result.skipped) print(`Skipped part ${skip.index + 1}: ${skip.error}`);
}

async function demo(): Promise<void> {
  const start = Date.parse("2026-03-14T07:30:00Z");
  let now = start;
  const clock: Clock = { now: () => now };
  const store = new ReminderStore(":memory:");
  // The translator's replies are scripted here; `add` asks a real model.
  const translator = new ScriptedModel([
    '{"message": "Check email", "schedule_type": "daily", "at": "09:00"}',
    '```json\n{"message": "Dentist appointment", "schedule_type": "once", "at": "2026-03-15T10:00:00"}\n```',
    '{"message": "Check server status", "schedule_type": "interval", "interval_seconds": 14400, "window_start": "08:00", "window_end": "18:00", "ai_prompt": "Count the services marked down in the status report and answer with the count."}',
    '{"error": "missing_info", "clarification_needed": "When should the reminder fire?"}',
  ]);
  for (const description of ["daily at 09:00 to check email", "once on 2026-03-15 at 10:00 — dentist appointment", "every 4 hours between 08:00 and 18:00 check server status", "remind me to call John"]) {
    print(`> ${description}`);
    await addReminder(store, translator, description, clock);
  }
  const aiModel = new ScriptedModel(Array.from({ length: 10 }, () => '```js\nFINAL("0 services down")\n```'));
  const reminders = createReminders({
    store,
    clock,
    aiSession: { model: aiModel, subcalls: false, sandbox: { backend: "isolate" } },
    onFire: (firing, reminder) => print(`${new Date(firing.dueAt).toISOString()}  ${firing.message} (${describeSchedule(reminder.spec)})${firing.answer !== undefined ? ` → session answered ${JSON.stringify(firing.answer)}` : ""}`),
  });
  print("\nTwo simulated days:");
  for (let next = store.nextDue(); next !== undefined && next < start + 2 * 86_400_000; next = store.nextDue()) {
    now = next;
    await reminders.fireDue();
  }
  store.close();
}

function env(name: string): string | undefined {
  return process.env[name] || undefined;
}

async function main(): Promise<void> {
  if (command === "demo") return demo();
  const store = new ReminderStore(env("RLMKIT_REMINDERS_DB") ?? "reminders.sqlite");
  try {
    if (command === "add" && rest.length > 0) {
      const translator = new OpenAICompatibleModel({ model: env("RLMKIT_TRANSLATOR_MODEL") ?? env("RLMKIT_MODEL") });
      return await addReminder(store, translator, rest.join(" "));
    }
    if (command === "list") {
      for (const reminder of store.list()) print(`${reminder.id}  ${reminder.spec.message}  ${describeSchedule(reminder.spec)}  next ${reminder.nextFireAt === null ? "never" : new Date(reminder.nextFireAt).toISOString()}`);
      return;
    }
    if (command === "cancel" && rest[0]) return print(store.cancel(rest[0]) ? `Cancelled ${rest[0]}.` : `No active reminder ${rest[0]}.`);
    if (command === "run") {
      const reminders = createReminders({
        store,
        aiSession: { model: new OpenAICompatibleModel({ model: env("RLMKIT_MODEL") }) },
        onFire: (firing) => print(`${new Date(firing.firedAt).toISOString()}  ${firing.message}${firing.answer !== undefined ? ` → ${JSON.stringify(firing.answer)}` : ""}`),
      });
      print("Waiting for reminders (Ctrl-C stops).");
      for (;;) {
        await reminders.fireDue();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
    print('usage: main.ts demo | add "<description>" | list | cancel <id> | run');
    process.exitCode = 1;
  } finally {
    store.close();
  }
}

await main();
