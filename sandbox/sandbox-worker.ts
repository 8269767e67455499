/**
 * The sandbox worker process: a small program the process backend forks a few of.
 * It holds any number of isolate sandboxes (the in-process backend, unchanged) for
 * the host and answers the host's requests (see `worker-protocol.ts`). Host
 * functions exposed to a guest become calls back to the host. When the host goes
 * away, the worker exits.
 */
import { createIsolateSandbox, onIsolateLost } from "./isolate-sandbox.ts";
import type { GuestValue, Sandbox } from "./sandbox.ts";
import type { HostMessage, WorkerMessage, WorkerRequest } from "./worker-protocol.ts";

const sandboxes = new Map<number, Sandbox>();
const calls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextCallId = 0;

function send(message: WorkerMessage): void {
  if (process.connected) process.send!(message);
}

function callHost(sandbox: number, name: string, args: GuestValue[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const callId = ++nextCallId;
    calls.set(callId, { resolve, reject });
    send(["call", sandbox, callId, name, args]);
  });
}

async function handle(request: WorkerRequest): Promise<unknown> {
  const [op, , id] = request;
  if (op === "open") {
    sandboxes.set(id, await createIsolateSandbox(request[3]));
    return undefined;
  }
  const sandbox = sandboxes.get(id);
  if (!sandbox) throw new Error("sandbox was disposed; create a new one.");
  switch (op) {
    case "persist":
      return sandbox.setPersistentGlobal(request[3], request[4]);
    case "set":
      return sandbox.setGlobal(request[3], request[4]);
    case "stub":
      return sandbox.defineStub(request[3], request[4]);
    case "expose": {
      const name = request[3];
      return sandbox.exposeFunction(name, (...args) => callHost(id, name, args));
    }
    case "execute":
      return sandbox.execute(request[3]);
    case "reset":
      return sandbox.reset();
    case "dispose":
      sandboxes.delete(id);
      return sandbox.dispose();
  }
}

process.on("message", (message: HostMessage) => {
  if (message[0] === "settle") {
    const [, callId, ok, text, errorName] = message;
    const call = calls.get(callId);
    if (!call) return;
    calls.delete(callId);
    if (ok) call.resolve(JSON.parse(text));
    else call.reject(Object.assign(new Error(text), { name: errorName }));
    return;
  }
  const seq = message[1];
  handle(message).then(
    (value) => send(["done", seq, true, value]),
    (error: Error) => send(["done", seq, false, String(error?.message ?? error), typeof error?.name === "string" ? error.name : "Error"]),
  );
});
// An isolate lost to a catastrophic out-of-memory error keeps its heap and a parked
// thread, and a stuck one keeps its thread busy: this process should take no new
// sandboxes and end once its last one is gone.
onIsolateLost(() => send(["poisoned"]));
// The host went away (or closed the pool): nothing is left to serve. SIGKILL, because
// after a catastrophic error even process.exit() waits forever on the parked thread.
process.on("disconnect", () => process.kill(process.pid, "SIGKILL"));
send(["ready"]);
