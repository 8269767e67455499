import { defineTool, runSession, type SessionOptions, type Tool } from "../../src/index.ts";
import { REMINDER_EXAMPLES, REMINDER_INSTRUCTIONS, REMINDER_PARAMETERS, type ReminderSpec } from "./reminder-schema.ts";
import type { Firing, Reminder, ReminderStore } from "./reminder-store.ts";
import { nextFireTime } from "./schedule.ts";

/** A clock in epoch milliseconds; tests pass one they move by hand. */
export interface Clock {
  now(): number;
}

/** Options of {@link createReminders}. */
export interface RemindersOptions {
  readonly store: ReminderStore;
  /** Default: the system clock. */
  readonly clock?: Clock;
  /** Clock times in schedules are read at this offset from UTC. Default 0. */
  readonly utcOffsetMinutes?: number;
  /** Runs a reminder's `ai_prompt` as an rlmkit session with these options (the question is the prompt). Without it, `ai_prompt` is only recorded. */
  readonly aiSession?: Omit<SessionOptions, "question">;
  /** Told about every firing as it is recorded. */
  readonly onFire?: (firing: Firing, reminder: Reminder) => void;
}

/** The reminder tools and the loop that fires them. */
export interface Reminders {
  /** `set_reminder` (offered by description: `nl`), `list_reminders`, `cancel_reminder`. */
  readonly tools: readonly Tool[];
  readonly setReminder: Tool;
  /** Fires every reminder that is due now, in order, and returns the firings. */
  fireDue(): Promise<Firing[]>;
}

/**
 * The `set_reminder` example: a tool whose schema a small model fills badly (the
 * schedule type decides which time fields are required), so it is offered by
 * description and expanded by a translator. Reminders live in SQLite and fire when
 * `fireDue()` runs at or after their time; one with an `ai_prompt` runs a session.
 */
export function createReminders({ store, clock = { now: () => Date.now() }, utcOffsetMinutes = 0, aiSession, onFire }: RemindersOptions): Reminders {
  const setReminder = defineTool({
    name: "set_reminder",
    description: "Schedules a reminder or a recurring task, optionally with an AI task to run when it fires.",
    parameters: REMINDER_PARAMETERS,
    nl: {
      examples: REMINDER_EXAMPLES,
      instructions: REMINDER_INSTRUCTIONS,
      describe: "When, how often, and what to remind of or do, e.g. 'daily at 09:00 to check email', 'every Monday at 14:00 to review pulse', 'once on 2026-03-15 at 10:00 — dentist', 'every hour between 08:00 and 18:00 check the servers and alert if one is down'.",
    },
    handler: (args) => {
      const spec = args as ReminderSpec;
      const now = clock.now();
      const next = nextFireTime(spec, now, { anchorMs: now, utcOffsetMinutes });
      if (next === undefined) return { error: `${spec.at} has already passed; give a time in the future.` };
      const reminder = store.add(spec, now, next);
      return `Reminder set: id=${reminder.id}, ${describeSchedule(spec)}; next at ${new Date(next).toISOString()}.`;
    },
  });
  const listReminders = defineTool({
    name: "list_reminders",
    description: "Lists the active reminders with their ids and next times.",
    parameters: { type: "object", properties: {} },
    handler: () => store.list().map((reminder) => ({ id: reminder.id, message: reminder.spec.message, schedule: describeSchedule(reminder.spec), next: reminder.nextFireAt === null ? null : new Date(reminder.nextFireAt).toISOString() })),
  });
  const cancelReminder = defineTool({
    name: "cancel_reminder",
    description: "Cancels a reminder by id.",
    parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    handler: ({ id }) => (store.cancel(id) ? `Cancelled ${id}.` : { error: `no active reminder has the id '${id}'; list_reminders() shows them.` }),
  });

  return {
    tools: [setReminder, listReminders, cancelReminder],
    setReminder,
    async fireDue() {
      const fired: Firing[] = [];
      for (const reminder of store.due(clock.now())) {
        const dueAt = reminder.nextFireAt!;
        let session: Pick<Firing, "sessionStatus" | "answer"> = {};
        if (reminder.spec.ai_prompt !== undefined && aiSession) {
          const result = await runSession({ ...aiSession, question: aiQuestion(reminder, dueAt) });
          session = { sessionStatus: result.status, ...(result.answer !== undefined ? { answer: result.answer } : {}) };
        }
        const firedAt = clock.now();
        const firing: Firing = { reminderId: reminder.id, dueAt, firedAt, message: reminder.spec.message, ...session };
        store.recordFiring(firing, nextFireTime(reminder.spec, Math.max(dueAt, firedAt), { anchorMs: reminder.createdAt, utcOffsetMinutes }) ?? null);
        onFire?.(firing, reminder);
        fired.push(firing);
      }
      return fired;
    },
  };
}

/** The question an `ai_prompt` session answers. */
function aiQuestion(reminder: Reminder, dueAt: number): string {
  return `${reminder.spec.ai_prompt}\n\n(This runs because the reminder "${reminder.spec.message}" fired at ${new Date(dueAt).toISOString()}.)`;
}

/** The schedule in words: `daily at 09:00`, `every 3600 s between 08:00 and 18:00`. */
export function describeSchedule(spec: ReminderSpec): string {
  switch (spec.schedule_type) {
    case "once":
      return `once at ${spec.at}`;
    case "daily":
      return `daily at ${spec.at}`;
    case "weekly":
      return `every ${spec.day_of_week} at ${spec.at}`;
    case "monthly":
      return `monthly on day ${spec.day_of_month} at ${spec.at}`;
    case "interval":
      return `every ${spec.interval_seconds} s${spec.window_start ? ` between ${spec.window_start} and ${spec.window_end}` : ""}`;
  }
}
