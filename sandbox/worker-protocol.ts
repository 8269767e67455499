import type { GuestValue, SandboxLimits } from "./sandbox.ts";

/**
 * The compact protocol between the host and a sandbox worker process, over Node's
 * IPC channel with structured-clone ("advanced") serialization. Every message is a
 * short array whose first item names it. Each request carries a sequence number and
 * is answered by exactly one `done` message with the same number.
 */
export type WorkerRequest =
  | readonly [op: "open", seq: number, sandbox: number, limits: SandboxLimits]
  | readonly [op: "persist", seq: number, sandbox: number, name: string, value: GuestValue]
  | readonly [op: "set", seq: number, sandbox: number, name: string, value: GuestValue]
  | readonly [op: "stub", seq: number, sandbox: number, name: string, message: string]
  | readonly [op: "expose", seq: number, sandbox: number, name: string]
  | readonly [op: "execute", seq: number, sandbox: number, code: string]
  | readonly [op: "reset", seq: number, sandbox: number]
  | readonly [op: "dispose", seq: number, sandbox: number];

/** The host's answer to a host-function call: the `reply` JSON of the function's value, or an error. */
export type CallSettlement = readonly [op: "settle", callId: number, ok: boolean, jsonOrMessage: string, errorName: string];

/** Anything the host sends a worker. */
export type HostMessage = WorkerRequest | CallSettlement;

/** Anything a worker sends the host. */
export type WorkerMessage =
  | readonly [op: "ready"]
  /** An isolate in the worker was written off (a catastrophic error, or stuck): the worker should be retired. */
  | readonly [op: "poisoned"]
  | readonly [op: "done", seq: number, ok: true, value: unknown]
  | readonly [op: "done", seq: number, ok: false, message: string, name: string]
  /** Guest code called an exposed host function; the host answers with a `settle` message. */
  | readonly [op: "call", sandbox: number, callId: number, name: string, args: GuestValue[]];

/** The request operations, for dispatch. */
export type WorkerOp = WorkerRequest[0];
