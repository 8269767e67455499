import { GUEST_DESCRIBE_SOURCE } from "./guest-describe.ts";

/** Names of the host callbacks the runtime takes over (and removes from the global object) at start-up. */
export const HOST_CALLBACKS = {
  output: "__rlm_host_output",
  final: "__rlm_host_final",
  callStart: "__rlm_host_call_start",
  runEnded: "__rlm_host_run_ended",
} as const;

/** Entry points of the guest runtime; the host holds references to them, guest code cannot reach them. */
export const RUNTIME_ENTRY_POINTS = ["compileRun", "compileOutcome", "run", "quiet", "ended", "settle", "expose", "stub", "setGlobal"] as const;

/**
 * Source of the guest runtime, evaluated once in every fresh context. It evaluates
 * to an object holding the runtime's entry points (see {@link RUNTIME_ENTRY_POINTS});
 * the host keeps references to them and no global points at the object.
 *
 * The runtime owns print/console, FINAL/FINAL_VAR, stubs and exposed host functions.
 * Host callbacks arrive as globals, are captured in this closure and deleted, so
 * guest code never sees them; everything that crosses the boundary is a string.
 * Built-ins the runtime relies on are captured at start-up, so guest code that
 * replaces `JSON`, `String`, `Promise.prototype.then` and the like harms only itself.
 */
export const GUEST_RUNTIME_SOURCE = String.raw`(() => {
  "use strict";
  const G = globalThis;
  const hostOutput = G.${HOST_CALLBACKS.output};
  const hostFinal = G.${HOST_CALLBACKS.final};
  const hostCallStart = G.${HOST_CALLBACKS.callStart};
  const hostRunEnded = G.${HOST_CALLBACKS.runEnded};
  delete G.${HOST_CALLBACKS.output};
  delete G.${HOST_CALLBACKS.final};
  delete G.${HOST_CALLBACKS.callStart};
  delete G.${HOST_CALLBACKS.runEnded};
  for (const name of ["WebAssembly", "SharedArrayBuffer", "Atomics"]) delete G[name];

  // Indirect: the code it is given runs in the global scope, as a script would.
  const indirectEval = G.eval;
  const stringify = JSON.stringify;
  const sliceString = Function.prototype.call.bind(String.prototype.slice);
  const parseJson = JSON.parse;
  const StringOf = String;
  const ErrorOf = Error;
  const TypeErrorOf = TypeError;
  const ReferenceErrorOf = ReferenceError;
  // The errors V8 makes when a block does not compile (a parse error, a parser's stack overflow, a failed top-level
  // declaration, isolated-vm's refusal of too long a string), told apart by their prototypes (read from no guest property).
  const COMPILE_ERRORS = [[SyntaxError.prototype, "SyntaxError"], [TypeError.prototype, "TypeError"], [RangeError.prototype, "RangeError"], [EvalError.prototype, "EvalError"]];
  const getPrototypeOf = Object.getPrototypeOf;
  const PromiseOf = Promise;
  const defineProperty = Object.defineProperty;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const freeze = Object.freeze;
  const create = Object.create;
  const isFinite = Number.isFinite;
  const FINAL_SIGNAL = freeze({ rlmFinal: "FINAL was called; the block ends here" });
  let outputOpen = true;
  /** Characters the block may still print: output is cut here, so no more than that ever leaves the isolate. */
  let outputRoom = 0;
  let finished = false;
  const pending = create(null);
  let nextCallId = 0;
  // What the latest compileRun's compile threw, described (undefined: it compiled); see compileOutcome().
  let lastCompile;
  // For quiet() and ended(): the runs under way (one that failed for the host may go on after an await),
  // the latest run's token and whether it has ended, whether the host waits to hear that it has, and
  // whether guest code ever registered with a FinalizationRegistry (whose callbacks run in tasks of
  // their own, after the block).
  let runsUnderway = 0;
  let latestRun = 0;
  let latestEnded = true;
  let notifyEnd = false;
  let registered = false;
  const apply = Reflect.apply;
  if (typeof G.FinalizationRegistry === "function") {
    const register = G.FinalizationRegistry.prototype.register;
    defineProperty(G.FinalizationRegistry.prototype, "register", {
      value: { register(target, heldValue) { registered = true; return apply(register, this, arguments); } }.register,
      writable: true, enumerable: false, configurable: true,
    });
  }

  const define = (name, value) =>
    defineProperty(G, name, { value, writable: false, configurable: false, enumerable: false });

${GUEST_DESCRIBE_SOURCE}
  function print(...args) {
    if (!outputOpen || finished) return;
    let text;
    try {
      text = StringOf(args.map((arg) => format(arg, 0, [])).join(" "));
    } catch (error) {
      text = "[unprintable value]";
    }
    if (text.length >= outputRoom) {
      // Cut here (one character past the room tells the host it was cut), before the text is copied out.
      outputOpen = false;
      hostOutput(text.length > outputRoom ? sliceString(text, 0, outputRoom + 1) : text + "\n");
      return;
    }
    outputRoom -= text.length + 1;
    outputOpen = hostOutput(text + "\n") === true;
  }

  function toJson(value, what) {
    if (typeof value === "number" && !isFinite(value)) {
      throw new TypeErrorOf(what + " needs a JSON value; " + StringOf(value) + " is not one (use a string or null).");
    }
    let json;
    try {
      json = stringify(value);
    } catch (error) {
      throw new TypeErrorOf(what + " needs a JSON value: " + StringOf(error && error.message));
    }
    if (typeof json !== "string") throw new TypeErrorOf(what + " needs a JSON value (a string, number, boolean, null, array or plain object), got " + typeof value + ".");
    return json;
  }

  function FINAL(...args) {
    if (args.length === 0 || args[0] === undefined) {
      throw new TypeErrorOf("FINAL needs a value: call FINAL(answer) with a string or any JSON value (FINAL(\"\") is a valid empty answer).");
    }
    if (!finished) {
      const refused = hostFinal(toJson(args[0], "FINAL"));
      if (typeof refused === "string") throw new TypeErrorOf(refused);
      finished = true;
    }
    throw FINAL_SIGNAL;
  }

  function FINAL_VAR(name) {
    if (typeof name !== "string") throw new TypeErrorOf("FINAL_VAR takes the variable's name as a string, e.g. FINAL_VAR(\"answer\").");
    const descriptor = getOwnPropertyDescriptor(G, name);
    if (!descriptor || !("value" in descriptor) || descriptor.value === undefined) {
      throw new ReferenceErrorOf("FINAL_VAR(\"" + name + "\"): no top-level variable named '" + name + "' holds a value. Assign it first (const " + name + " = ...) or call FINAL(value).");
    }
    return FINAL(descriptor.value);
  }

  function unwrap(json) {
    const reply = parseJson(json);
    if (reply.error !== undefined) {
      const error = new ErrorOf(reply.error);
      error.name = reply.errorName || "Error";
      throw error;
    }
    return reply.value;
  }

  function makeHostFunction(name) {
    // The host starts the call and later settles it by id, so several calls can be in flight at once.
    // The error a failed call rejects with is made at the call, so its stack points at the guest's line.
    return {
      [name]: (...args) => {
        const site = new ErrorOf();
        return new PromiseOf((resolve, reject) => {
          const json = toJson(args, name);
          const id = ++nextCallId;
          pending[id] = { resolve, reject, site };
          hostCallStart(name, json, id);
        });
      },
    }[name];
  }

  define("print", print);
  define("console", freeze({ log: print, info: print, warn: print, error: print, debug: print }));
  define("FINAL", FINAL);
  define("FINAL_VAR", FINAL_VAR);

  /** Runs one block's body, printing at most maxOutputChars characters; resolves to undefined or to a JSON description of what it threw. Never rejects. */
  async function run(body, maxOutputChars) {
    outputOpen = true;
    outputRoom = maxOutputChars;
    finished = false;
    const token = ++latestRun;
    latestEnded = false;
    runsUnderway++;
    try {
      // Awaiting a promise reads its constructor, which guest code can make a throwing getter on
      // Promise.prototype: the run would end here while its body goes on. An own one skips it.
      const done = body(G);
      defineProperty(done, "constructor", { value: PromiseOf });
      await done;
      return undefined;
    } catch (error) {
      return describe(error);
    } finally {
      runsUnderway--;
      if (token === latestRun) {
        latestEnded = true;
        if (notifyEnd) {
          notifyEnd = false;
          hostRunEnded();
        }
      }
    }
  }

  return freeze({
    /**
     * Compiles one block (in the global scope, as a script, with its own sourceURL) and runs it as run() does;
     * resolves to a JSON description marked "compile" when it does not compile (nothing of it ran then). One call:
     * a block's compile, its run and its end cost the host one round trip to the isolate's thread, not three.
     */
    compileRun(source, maxOutputChars) {
      let body;
      lastCompile = undefined;
      try {
        body = indirectEval(source);
      } catch (error) {
        lastCompile = describeCompile(error);
        const json = lastCompile;
        // A promise made here, not Promise.resolve, which guest code can replace.
        return new PromiseOf((resolve) => resolve(json));
      }
      return run(body, maxOutputChars);
    },
    /**
     * The description of the latest compileRun's compile failure, or undefined when it compiled: for a host whose call
     * failed for another reason (a rejection a FinalizationRegistry callback of an earlier block left unhandled).
     */
    compileOutcome() {
      return lastCompile;
    },
    /** Runs a block's body the host compiled itself (a block longer than isolated-vm compiles from a string); see run(). */
    run,
    /**
     * True when no run is under way and no guest code can run before the next one: no host call is
     * pending (its result, and the callbacks on it, would come in a later task), whichever block
     * started it, and no FinalizationRegistry was ever registered with (its callbacks run in tasks of
     * their own). Called right after a run, it answers in the task that follows the run's.
     */
    quiet() {
      if (runsUnderway > 0 || registered) return false;
      for (const id in pending) return false;
      return true;
    },
    /**
     * True when the latest run has ended; otherwise false, and the runtime tells the host (its
     * captured callback) when it does. Nothing the guest can reach runs in it or in the answer.
     */
    ended() {
      if (latestEnded) return true;
      notifyEnd = true;
      return false;
    },
    settle(id, json) {
      const call = pending[id];
      if (!call) return;
      delete pending[id];
      try {
        call.resolve(unwrap(json));
      } catch (error) {
        call.site.name = error.name;
        call.site.message = error.message;
        call.reject(call.site);
      }
    },
    expose(name) {
      define(name, makeHostFunction(name));
    },
    stub(name, message) {
      define(name, { [name]: function () { throw new ErrorOf(message); } }[name]);
    },
    /** Defines a global without running guest setters; false when guest code made the name read-only. */
    setGlobal(name, value) {
      const descriptor = getOwnPropertyDescriptor(G, name);
      try {
        if (!descriptor || descriptor.configurable) {
          delete G[name];
          defineProperty(G, name, { value, writable: true, enumerable: true, configurable: true });
        } else if ("value" in descriptor && descriptor.writable) {
          defineProperty(G, name, { value });
        } else {
          return false;
        }
        return true;
      } catch (error) {
        return false;
      }
    },
  });
})()`;
