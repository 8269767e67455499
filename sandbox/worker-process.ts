import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExecutionErrorKind, GuestValue, SandboxLimits } from "./sandbox.ts";
import type { HostMessage, WorkerMessage, WorkerOp } from "./worker-protocol.ts";
import { jsonChars } from "./json-size.ts";

/** The worker program, next to this file (`.ts` in a checkout run by Node 24, `.js` once built). */
const WORKER_PATH = fileURLToPath(new URL(`./sandbox-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

/**
 * How long a worker may take to start, or stay silent while a request other than
 * `execute` (whose time the block's own limit governs) waits for its answer,
 * before the host stops it as stuck. Such requests take milliseconds; a worker that
 * says nothing for this long is wedged (a V8 deadlock inside `new Isolate`, say)
 * and would otherwise hang its sessions forever.
 */
export const WORKER_STALL_MS = 15_000;
/** Extra time allowed per MB of a value sent with `persist` or `set` (copying it in). */
const STALL_MS_PER_MB = 100;

/** Every live worker, killed when the host process exits so that none outlives it. */
const children = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  children.add(child);
  child.once("exit", () => children.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const worker of children) worker.kill("SIGKILL");
  });
}

/** Options of a {@link WorkerProcess}. */
export interface WorkerProcessOptions {
  /** The worker program (tests substitute one). Default: `sandbox-worker` next to this file. */
  readonly path?: string;
  /** See {@link WORKER_STALL_MS}. */
  readonly stallMs?: number;
}

/** Why a worker process went away, as the blocks it was running are told. */
export interface WorkerLoss {
  /** `timeout`: the host stopped it for a block over its time limit; `memory`: over its memory cap; `crash`: it ended by itself. */
  readonly kind: Extract<ExecutionErrorKind, "timeout" | "memory" | "crash">;
  /** The sandbox whose block overran its time limit, for `timeout`. */
  readonly culprit?: number;
  /** What happened, for people: no host paths. */
  readonly detail: string;
}

/** A request to a worker that could not be answered because the worker went away. */
export class WorkerLostError extends Error {
  override readonly name = "WorkerLostError";
  readonly loss: WorkerLoss;
  constructor(loss: WorkerLoss) {
    super(`the sandbox worker process went away: ${loss.detail}`);
    this.loss = loss;
  }
}

/** What a worker needs from the sandboxes it hosts. */
export interface WorkerTenant {
  /** Runs an exposed host function for guest code; resolves to the `reply` JSON or rejects with the error to give the guest. */
  callHost(name: string, args: GuestValue[]): Promise<string>;
  /** The worker went away; the tenant's state in it is lost. */
  lost(loss: WorkerLoss): void;
  /** MB the tenant may legitimately use (its heap limit plus its persistent globals). */
  allowanceMb(): number;
}

/**
 * One sandbox worker process, seen from the host: requests and their answers,
 * host-function calls from its guests, its tenants, its resident memory, and
 * `kill`. It does not keep the host process alive while nothing is pending.
 */
export class WorkerProcess {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #tenants = new Map<number, WorkerTenant>();
  readonly ready: Promise<void>;
  #seq = 0;
  #nextTenant = 0;
  #busy = 0;
  #loss?: WorkerLoss;
  #gone = false;
  /** Takes no new sandboxes, and is stopped when its last one is released (after an isolate in it was written off). */
  retiring = false;
  /** Called once when the process has gone away. */
  onGone: (worker: WorkerProcess) => void = () => undefined;

  readonly #stallMs: number;
  /** Requests other than blocks awaiting an answer, by sequence number (see `#armStall`). */
  readonly #awaited = new Map<number, { readonly op: WorkerOp; readonly extraMs: number }>();
  #stallTimer?: NodeJS.Timeout;

  constructor({ path = WORKER_PATH, stallMs = WORKER_STALL_MS }: WorkerProcessOptions = {}) {
    this.#stallMs = stallMs;
    this.#child = fork(path, [], { serialization: "advanced", stdio: ["ignore", "ignore", "ignore", "ipc"], execArgv: [] });
    this.#child.unref();
    track(this.#child);
    // Starting counts as pending: a host that waits for a sandbox must stay alive.
    this.#active(+1);
    let started: () => void = () => undefined;
    let failed: (error: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => ((started = resolve), (failed = reject)));
    this.ready.catch(() => undefined);
    const startDeadline = setTimeout(() => this.#stuck("start"), stallMs).unref();
    this.ready.then(() => clearTimeout(startDeadline), () => clearTimeout(startDeadline));
    this.#child.on("message", (message: WorkerMessage) => {
      if (this.#awaited.size > 0) this.#armStall();
      if (message[0] === "ready") {
        started();
        this.#active(-1);
      }
      else if (message[0] === "done") this.#settle(message);
      else if (message[0] === "poisoned") this.retiring = true;
      else if (message[0] === "call") this.#call(message[1], message[2], message[3], message[4]);
    });
    this.#child.on("error", () => this.#child.kill("SIGKILL"));
    this.#child.on("exit", (code, signal) => {
      this.#gone = true;
      const loss = this.#loss ?? { kind: "crash", detail: `its worker process ended abruptly (${signal ?? `exit code ${code}`}), as on a fatal V8 error such as a string or array too large for V8` };
      failed(new WorkerLostError(loss));
      const error = new WorkerLostError(loss);
      for (const { reject } of this.#pending.values()) reject(error);
      this.#pending.clear();
      for (const tenant of this.#tenants.values()) tenant.lost(loss);
      this.#tenants.clear();
      this.onGone(this);
    });
  }

  /** The process id. */
  get pid(): number {
    return this.#child.pid ?? -1;
  }

  /** True once the process has exited or was killed. */
  get gone(): boolean {
    return this.#gone || this.#loss !== undefined;
  }

  /** How many sandboxes live in this worker. */
  get tenants(): number {
    return this.#tenants.size;
  }

  /** Takes a tenant in; returns its sandbox id in this worker. */
  adopt(tenant: WorkerTenant): number {
    const id = ++this.#nextTenant;
    this.#tenants.set(id, tenant);
    return id;
  }

  /** Forgets a tenant (its sandbox was disposed, or never opened); a retiring worker ends with its last tenant. */
  release(id: number): void {
    this.#tenants.delete(id);
    if (this.retiring && this.#tenants.size === 0) this.kill({ kind: "crash", detail: "its worker process was retired" });
  }

  /** The memory cap: a base for the process itself plus every tenant's allowance. */
  capMb(baseMb: number): number {
    let total = baseMb;
    for (const tenant of this.#tenants.values()) total += tenant.allowanceMb();
    return total;
  }

  /** Resident memory in MB, read from /proc (Linux); undefined where that cannot be read. */
  residentMb(): number | undefined {
    const pid = this.#child.pid;
    if (pid === undefined || this.gone) return undefined;
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      return match ? Number(match[1]) / 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** Sends a request; rejects with the worker's error, or with {@link WorkerLostError} if the worker goes away first. */
  request(op: "open", id: number, limits: SandboxLimits): Promise<unknown>;
  request(op: Exclude<WorkerOp, "open">, id: number, ...args: (string | GuestValue)[]): Promise<unknown>;
  request(op: WorkerOp, id: number, ...args: unknown[]): Promise<unknown> {
    if (this.gone) return Promise.reject(new WorkerLostError(this.#loss ?? { kind: "crash", detail: "its worker process had ended" }));
    const seq = ++this.#seq;
    const answered = new Promise((resolve, reject) => {
      this.#pending.set(seq, { resolve, reject });
      this.#active(+1);
      this.#send([op, seq, id, ...args] as unknown as HostMessage);
    });
    if (op === "execute") return answered;
    this.#awaited.set(seq, { op, extraMs: STALL_MS_PER_MB * Math.ceil(valueChars(op, args) / (1024 * 1024)) });
    this.#armStall();
    return answered.finally(() => {
      this.#awaited.delete(seq);
      this.#armStall();
    });
  }

  /**
   * (Re)starts the stall deadline while requests other than blocks are waiting. Any
   * message from the worker is progress and restarts it, so a request queued behind
   * another tenant's slow but progressing work is not taken for a stuck worker; only
   * silence for the whole allowance (the stall time plus the time for every waiting
   * value's size) is.
   */
  #armStall(): void {
    clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
    if (this.#awaited.size === 0 || this.gone) return;
    let allowed = this.#stallMs;
    for (const { extraMs } of this.#awaited.values()) allowed += extraMs;
    const [first] = this.#awaited.values();
    this.#stallTimer = setTimeout(() => this.#stuck(first!.op, allowed), allowed).unref();
  }

  /** Stops the process at once; every pending request fails with `loss`. */
  kill(loss: WorkerLoss): void {
    if (this.gone) return;
    this.#loss = loss;
    this.#child.kill("SIGKILL");
  }

  /** The worker did not start or answer in time: it is wedged, so stop it; its tenants continue on a fresh one. */
  #stuck(what: WorkerOp | "start", allowedMs = this.#stallMs): void {
    const doing = what === "start" ? "start" : `answer a '${what}' request`;
    this.kill({ kind: "crash", detail: `its worker process did not ${doing} within ${Math.round(allowedMs / 1000)} s and was stopped as stuck` });
  }

  #send(message: HostMessage): void {
    try {
      this.#child.send(message);
    } catch {
      // The channel closed: the exit handler fails whatever is pending.
    }
  }

  #settle(message: Extract<WorkerMessage, readonly ["done", ...unknown[]]>): void {
    const pending = this.#pending.get(message[1]);
    if (!pending) return;
    this.#pending.delete(message[1]);
    this.#active(-1);
    if (message[2]) pending.resolve(message[3]);
    else pending.reject(Object.assign(new Error(message[3]), { name: message[4] }));
  }

  #call(id: number, callId: number, name: string, args: GuestValue[]): void {
    const tenant = this.#tenants.get(id);
    const answer = tenant ? tenant.callHost(name, args) : Promise.reject(new Error(`${name} is not available`));
    this.#active(+1);
    answer.then(
      (json) => this.#send(["settle", callId, true, json, ""]),
      (error: Error) => this.#send(["settle", callId, false, String(error?.message ?? error), typeof error?.name === "string" ? error.name : "Error"]),
    ).finally(() => this.#active(-1));
  }

  /** Keeps the host process alive only while something is pending in this worker. */
  #active(delta: number): void {
    const before = this.#busy;
    this.#busy += delta;
    if (before === 0 && this.#busy > 0) this.#child.channel?.ref();
    else if (this.#busy === 0) this.#idle();
  }

  #idle(): void {
    this.#child.channel?.unref();
  }
}

/** About how many characters the value sent with a `persist` or `set` takes (0 for other requests, or a value JSON cannot hold). */
function valueChars(op: WorkerOp, args: readonly unknown[]): number {
  if (op !== "persist" && op !== "set") return 0;
  try {
    return jsonChars(args[1]);
  } catch {
    return 0;
  }
}
