import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import type { JsonValue } from "../../src/index.ts";
import type { ReminderSpec } from "./reminder-schema.ts";

/** A stored reminder. */
export interface Reminder {
  readonly id: string;
  readonly spec: ReminderSpec;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** When it fires next (epoch ms); `null` once it never will again. */
  readonly nextFireAt: number | null;
  readonly cancelled: boolean;
}

/** One time a reminder fired, and what its `ai_prompt` session answered. */
export interface Firing {
  readonly reminderId: string;
  /** When it was due (epoch ms). */
  readonly dueAt: number;
  /** When it actually fired (epoch ms). */
  readonly firedAt: number;
  readonly message: string;
  /** The `ai_prompt` session's status and answer, when the reminder had one. */
  readonly sessionStatus?: string;
  readonly answer?: JsonValue;
}

/**
 * Reminders and their firings in one SQLite file (`node:sqlite`, no dependency).
 * A store opened again on the same file sees everything a previous process saved.
 */
export class ReminderStore {
  readonly #db: DatabaseSync;

  /** Opens (or creates) the store at `path`; `":memory:"` for a throwaway one. */
  constructor(path: string) {
    this.#db = new DatabaseSync(path);
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS reminders (
        id TEXT PRIMARY KEY, spec TEXT NOT NULL, created_at INTEGER NOT NULL,
        next_fire_at INTEGER, cancelled INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE IF NOT EXISTS firings (
        reminder_id TEXT NOT NULL, due_at INTEGER NOT NULL, fired_at INTEGER NOT NULL,
        message TEXT NOT NULL, session_status TEXT, answer TEXT);
    `);
  }

  /** Saves a new reminder and returns it. */
  add(spec: ReminderSpec, createdAt: number, nextFireAt: number | null): Reminder {
    const id = `reminder_${randomUUID().slice(0, 8)}`;
    this.#db.prepare("INSERT INTO reminders (id, spec, created_at, next_fire_at) VALUES (?, ?, ?, ?)").run(id, JSON.stringify(spec), createdAt, nextFireAt);
    return { id, spec, createdAt, nextFireAt, cancelled: false };
  }

  /** Every reminder, oldest first; cancelled ones only when asked. */
  list({ includeCancelled = false }: { includeCancelled?: boolean } = {}): Reminder[] {
    const rows = this.#db.prepare(`SELECT * FROM reminders ${includeCancelled ? "" : "WHERE cancelled = 0"} ORDER BY created_at, rowid`).all();
    return rows.map(toReminder);
  }

  /** Active reminders due at or before `now`. */
  due(now: number): Reminder[] {
    return this.#db.prepare("SELECT * FROM reminders WHERE cancelled = 0 AND next_fire_at IS NOT NULL AND next_fire_at <= ? ORDER BY next_fire_at, rowid").all(now).map(toReminder);
  }

  /** The earliest time an active reminder fires, or undefined. */
  nextDue(): number | undefined {
    const row = this.#db.prepare("SELECT MIN(next_fire_at) AS next FROM reminders WHERE cancelled = 0 AND next_fire_at IS NOT NULL").get() as { next: number | null } | undefined;
    return row?.next ?? undefined;
  }

  /** Cancels a reminder; false when there is no active reminder with that id. */
  cancel(id: string): boolean {
    return Number(this.#db.prepare("UPDATE reminders SET cancelled = 1 WHERE id = ? AND cancelled = 0").run(id).changes) > 0;
  }

  /** Records a firing and moves the reminder to its next time (`null`: done). */
  recordFiring(firing: Firing, nextFireAt: number | null): void {
    this.#db.prepare("INSERT INTO firings (reminder_id, due_at, fired_at, message, session_status, answer) VALUES (?, ?, ?, ?, ?, ?)").run(firing.reminderId, firing.dueAt, firing.firedAt, firing.message, firing.sessionStatus ?? null, firing.answer === undefined ? null : JSON.stringify(firing.answer));
    this.#db.prepare("UPDATE reminders SET next_fire_at = ? WHERE id = ?").run(nextFireAt, firing.reminderId);
  }

  /** Every firing, in order. */
  firings(reminderId?: string): Firing[] {
    const rows = reminderId === undefined ? this.#db.prepare("SELECT * FROM firings ORDER BY fired_at, rowid").all() : this.#db.prepare("SELECT * FROM firings WHERE reminder_id = ? ORDER BY fired_at, rowid").all(reminderId);
    return rows.map((row) => ({
      reminderId: String(row.reminder_id),
      dueAt: Number(row.due_at),
      firedAt: Number(row.fired_at),
      message: String(row.message),
      ...(row.session_status !== null ? { sessionStatus: String(row.session_status) } : {}),
      ...(row.answer !== null ? { answer: JSON.parse(String(row.answer)) as JsonValue } : {}),
    }));
  }

  close(): void {
    this.#db.close();
  }
}

function toReminder(row: Record<string, unknown>): Reminder {
  return {
    id: String(row.id),
    spec: JSON.parse(String(row.spec)) as ReminderSpec,
    createdAt: Number(row.created_at),
    nextFireAt: row.next_fire_at === null ? null : Number(row.next_fire_at),
    cancelled: Number(row.cancelled) === 1,
  };
}
