import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** One row of the `interaction_log` table: one stage of one validation round. */
export interface InteractionLogRow {
  readonly round: string;
  readonly sessionId?: string;
  readonly turnId?: string;
  readonly phase: string;
  readonly scope: string;
  /** 1 detection, 2 validation (one row per detection), 3 correction. */
  readonly stage: 1 | 2 | 3;
  readonly hook?: string;
  /** What the stage was given, as JSON. */
  readonly input: string;
  /** What the stage produced before interpretation: the validator model's raw reply, or the detectors' findings as JSON. */
  readonly rawOutput: string;
  /** `ok`, `violation_detected`, `degraded`, `confirmed`, `suppressed`, `corrected`. */
  readonly outcome: string;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS interaction_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  created_at TEXT NOT NULL,
  round TEXT NOT NULL,
  session_id TEXT,
  turn_id TEXT,
  phase TEXT NOT NULL,
  scope TEXT NOT NULL,
  stage INTEGER NOT NULL,
  hook TEXT,
  input TEXT NOT NULL,
  raw_output TEXT NOT NULL,
  outcome TEXT NOT NULL
)`;

/** The SQLite log of validation rounds (`node:sqlite`): one row per stage, in the `interaction_log` table. */
export class InteractionLog {
  readonly #database: DatabaseSync;
  readonly #insert: StatementSync;

  /** Opens (or creates) the database file and its table. */
  constructor(path: string) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    // Loaded when a log is asked for: a static import would stop an older Node at link time,
    // before the version check of src/index.ts could say which Node to use.
    const { DatabaseSync: Database } = process.getBuiltinModule("node:sqlite");
    this.#database = new Database(path);
    this.#database.exec("PRAGMA journal_mode = WAL");
    this.#database.exec(SCHEMA);
    this.#insert = this.#database.prepare(
      "INSERT INTO interaction_log (created_at, round, session_id, turn_id, phase, scope, stage, hook, input, raw_output, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
  }

  /** Appends the rows of one round in one transaction. */
  write(rows: readonly InteractionLogRow[], time: Date): void {
    this.#database.exec("BEGIN");
    try {
      for (const row of rows) {
        this.#insert.run(time.toISOString(), row.round, row.sessionId ?? null, row.turnId ?? null, row.phase, row.scope, row.stage, row.hook ?? null, row.input, row.rawOutput, row.outcome);
      }
      this.#database.exec("COMMIT");
    } catch (error) {
      this.#database.exec("ROLLBACK");
      throw error;
    }
  }

  close(): void {
    if (this.#database.isOpen) this.#database.close();
  }
}
