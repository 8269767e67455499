/**
 * Runs one set-up call of each kind (setGlobal, defineStub, exposeFunction,
 * setPersistentGlobal), each on an in-process sandbox whose isolate a block has left
 * spinning between blocks, and prints what happened as one JSON line: how long each
 * call took, what the next block was told, and what the block after it sees.
 *
 * The block leaves two FinalizationRegistry callbacks that re-arm each other (each
 * allocates enough to make V8 collect, which queues the other): V8 runs them as tasks
 * of the isolate after the block has ended, between the host's own requests, so the
 * heap check after the block still answers. Once its time is up, a callback loops
 * forever, with no block and so no watchdog running: nothing answers any more.
 *
 * Usage: node test/support/stuck-setup-host.ts
 */
import { createIsolateSandbox, type Sandbox } from "../../sandbox/index.ts";
import { onIsolateLost } from "../../sandbox/isolate-sandbox.ts";

/** When the callbacks start to loop, well after the block and the heap check after it have ended (four sandboxes run at once, on a machine that may be busy). */
const SPIN_AFTER_MS = 1_000;
/** How long the host waits after the block before its set-up call: the callback loops by then. */
const WAIT_MS = 2_000;

const LEAVE_SPINNING = `
const spinAt = Date.now() + ${SPIN_AFTER_MS};
const collect = () => { for (let i = 0; i < 8; i++) new ArrayBuffer(64 * 1024 * 1024); };
const registries = [];
const rearm = (k) => () => {
  if (Date.now() > spinAt) while (true);
  (() => registries[1 - k].register({}, 0))();
  collect();
};
registries.push(new FinalizationRegistry(rearm(0)), new FinalizationRegistry(rearm(1)));
(() => registries[0].register({}, 0))();
collect();
`;

const CALLS: Record<string, (sandbox: Sandbox) => Promise<void>> = {
  setGlobal: (sandbox) => sandbox.setGlobal("injected", 1),
  defineStub: (sandbox) => sandbox.defineStub("stubbed", "a stub"),
  exposeFunction: (sandbox) => sandbox.exposeFunction("twice", (n) => Number(n) * 2),
  setPersistentGlobal: (sandbox) => sandbox.setPersistentGlobal("kept", "second"),
};

let stuck = 0;
onIsolateLost((why) => void (why === "stuck" && stuck++));

async function run(call: (sandbox: Sandbox) => Promise<void>) {
  const sandbox = await createIsolateSandbox({ timeoutMs: 2_000 });
  await sandbox.setPersistentGlobal("kept", "first");
  const block = await sandbox.execute(LEAVE_SPINNING);
  await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  const started = performance.now();
  const failure = await call(sandbox).then(
    () => undefined,
    (error: Error) => error.message,
  );
  const setUpMs = Math.round(performance.now() - started);
  const next = await sandbox.execute("print('ran')");
  const after = await sandbox.execute('FINAL([kept, typeof injected, typeof stubbed, typeof twice === "function" ? await twice(21) : "none"])');
  await sandbox.dispose();
  return { blockError: block.error, setUpMs, failure, next: { output: next.output, error: next.error, reset: next.reset }, after: after.final?.value ?? after.error };
}

const entries = await Promise.all(Object.entries(CALLS).map(async ([name, call]) => [name, await run(call)] as const));
console.log(JSON.stringify({ stuck, calls: Object.fromEntries(entries) }));
