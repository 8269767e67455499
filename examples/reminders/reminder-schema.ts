import type { TranslationExample, ToolParameters } from "../../src/index.ts";

/** How often a reminder fires. */
export type ScheduleType = "once" | "daily" | "weekly" | "monthly" | "interval";
/** Days of the week as `day_of_week` spells them. */
export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The arguments of `set_reminder`, as the schema below allows them. */
export interface ReminderSpec {
  readonly message: string;
  readonly schedule_type: ScheduleType;
  /** `once`: ISO-8601 date and time; `daily`/`weekly`/`monthly`: HH:MM. */
  readonly at?: string;
  readonly day_of_week?: Weekday;
  readonly day_of_month?: number;
  readonly interval_seconds?: number;
  /** `interval` only: fire only between these times of day (HH:MM). */
  readonly window_start?: string;
  readonly window_end?: string;
  /** A task for an rlmkit session to run when the reminder fires. */
  readonly ai_prompt?: string;
}

const CLOCK_TIME = "^([01][0-9]|2[0-3]):[0-5][0-9]$";
const ISO_TIME = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?(Z|[+-][0-9]{2}:[0-9]{2})?$";
const when = (type: ScheduleType) => ({ properties: { schedule_type: { const: type } } });

/**
 * `set_reminder`'s real schema: which of `at`, `day_of_week`, `day_of_month` and
 * `interval_seconds` are required (and allowed) depends on `schedule_type`, written
 * as JSON Schema `if`/`then`; the window is for `interval` only and comes in pairs.
 */
export const REMINDER_PARAMETERS: ToolParameters = {
  type: "object",
  properties: {
    message: { type: "string", minLength: 1, description: "The reminder text shown when it fires." },
    schedule_type: { enum: ["once", "daily", "weekly", "monthly", "interval"], description: "How often it fires." },
    at: { type: "string", description: "once: ISO-8601 date and time (2026-03-15T10:00:00); daily, weekly, monthly: HH:MM." },
    day_of_week: { enum: [...WEEKDAYS], description: "weekly: the day." },
    day_of_month: { type: "integer", minimum: 1, maximum: 31, description: "monthly: the day (in shorter months, the last day)." },
    interval_seconds: { type: "integer", minimum: 60, description: "interval: seconds between firings." },
    window_start: { type: "string", pattern: CLOCK_TIME, description: "interval: fire only from this time of day (HH:MM)." },
    window_end: { type: "string", pattern: CLOCK_TIME, description: "interval: fire only until this time of day (HH:MM)." },
    ai_prompt: { type: "string", minLength: 1, description: "A task for an AI session to carry out when the reminder fires, instead of only showing the message." },
  },
  required: ["message", "schedule_type"],
  additionalProperties: false,
  dependencies: { window_start: ["window_end"], window_end: ["window_start"] },
  allOf: [
    { if: when("once"), then: { required: ["at"], properties: { at: { pattern: ISO_TIME }, day_of_week: false, day_of_month: false, interval_seconds: false, window_start: false, window_end: false } } },
    { if: when("daily"), then: { required: ["at"], properties: { at: { pattern: CLOCK_TIME }, day_of_week: false, day_of_month: false, interval_seconds: false, window_start: false, window_end: false } } },
    { if: when("weekly"), then: { required: ["at", "day_of_week"], properties: { at: { pattern: CLOCK_TIME }, day_of_month: false, interval_seconds: false, window_start: false, window_end: false } } },
    { if: when("monthly"), then: { required: ["at", "day_of_month"], properties: { at: { pattern: CLOCK_TIME }, day_of_week: false, interval_seconds: false, window_start: false, window_end: false } } },
    { if: when("interval"), then: { required: ["interval_seconds"], properties: { at: false, day_of_week: false, day_of_month: false } } },
  ],
};

/** The translator's few-shot examples: the reference design's own. */
export const REMINDER_EXAMPLES: readonly TranslationExample[] = [
  { description: "daily at 09:00 to check email", output: { message: "Check email", schedule_type: "daily", at: "09:00" } },
  { description: "once on 2026-03-15 at 10:00 — dentist appointment", output: { message: "Dentist appointment", schedule_type: "once", at: "2026-03-15T10:00:00" } },
  { description: "every Monday at 14:00 to review pulse", output: { message: "Review pulse", schedule_type: "weekly", at: "14:00", day_of_week: "mon" } },
  { description: "1st of every month at 09:00 send monthly report", output: { message: "Send monthly report", schedule_type: "monthly", at: "09:00", day_of_month: 1 } },
  {
    description: "every hour between 08:00 and 18:00 check server status and alert if down",
    output: { message: "Check server status", schedule_type: "interval", interval_seconds: 3600, window_start: "08:00", window_end: "18:00", ai_prompt: "Check the server status report. If any service is down, answer with a critical alert naming it." },
  },
  { description: "remind me daily at noon to drink water", output: { message: "Drink water", schedule_type: "daily", at: "12:00" } },
  { description: "remind me to call John", output: { error: "missing_info", clarification_needed: "When should the reminder fire? Please give a date and time or a recurrence." } },
];

/** The translator's extra rules for `set_reminder`. */
export const REMINDER_INSTRUCTIONS: readonly string[] = [
  '"message" is always a short reminder text.',
  '"at" is HH:MM for daily, weekly and monthly reminders and an ISO-8601 date and time for once.',
  '"day_of_week" is one of sun mon tue wed thu fri sat; "day_of_month" is 1-31; convert minutes and hours to "interval_seconds".',
  'Set "ai_prompt" only when the description asks for something to be done or checked, not just a notification.',
  "Leave out every field the schedule type does not use.",
];
