import { RUNTIME_NAME } from "./repl-rewrite.ts";

/** Names of the host callbacks the runtime takes over (and removes from the global object) at start-up. */
export const HOST_CALLBACKS = {
  output: "__rlm_host_output",
  final: "__rlm_host_final",
  callSync: "__rlm_host_call_sync",
  callStart: "__rlm_host_call_start",
} as const;

/**
 * Source of the guest runtime, evaluated once in every fresh context. It owns
 * print/console, FINAL/FINAL_VAR, stubs and exposed host functions. Host callbacks
 * arrive as globals, are captured in this closure and deleted, so guest code
 * never sees them; everything that crosses the boundary is a string.
 */
export const GUEST_RUNTIME_SOURCE = String.raw`(() => {
  "use strict";
  const G = globalThis;
  const hostOutput = G.${HOST_CALLBACKS.output};
  const hostFinal = G.${HOST_CALLBACKS.final};
  const hostCallSync = G.${HOST_CALLBACKS.callSync};
  const hostCallStart = G.${HOST_CALLBACKS.callStart};
  delete G.${HOST_CALLBACKS.output};
  delete G.${HOST_CALLBACKS.final};
  delete G.${HOST_CALLBACKS.callSync};
  delete G.${HOST_CALLBACKS.callStart};
  for (const name of ["WebAssembly", "SharedArrayBuffer", "Atomics"]) delete G[name];

  const stringify = JSON.stringify;
  const parseJson = JSON.parse;
  const FINAL_SIGNAL = Object.freeze({ rlmFinal: true });
  let outputOpen = true;
  const pending = new Map();
  let nextCallId = 0;

  const define = (name, value, writable) =>
    Object.defineProperty(G, name, { value, writable: !!writable, configurable: false, enumerable: false });

  function format(value, depth, seen) {
    if (typeof value === "string") return depth === 0 ? value : stringify(value);
    if (value === undefined) return "undefined";
    if (typeof value === "bigint") return String(value) + "n";
    if (typeof value === "symbol") return value.toString();
    if (typeof value === "function") return "[Function " + (value.name || "anonymous") + "]";
    if (value === null || typeof value !== "object") return String(value);
    if (value instanceof Error) return value.stack && depth === 0 ? String(value.stack).split("\n")[0] : value.name + ": " + value.message;
    if (seen.includes(value)) return "[Circular]";
    if (depth > 6) return Array.isArray(value) ? "[Array]" : "[Object]";
    seen = seen.concat([value]);
    if (value instanceof Date) return isNaN(value) ? "Invalid Date" : value.toISOString();
    if (value instanceof Map) return "Map(" + value.size + ") {" + [...value].slice(0, 100).map(([k, v]) => format(k, depth + 1, seen) + " => " + format(v, depth + 1, seen)).join(", ") + "}";
    if (value instanceof Set) return "Set(" + value.size + ") {" + [...value].slice(0, 100).map((v) => format(v, depth + 1, seen)).join(", ") + "}";
    if (Array.isArray(value)) {
      const items = value.slice(0, 1000).map((v) => format(v, depth + 1, seen));
      if (value.length > 1000) items.push("... " + (value.length - 1000) + " more items");
      return "[" + items.join(", ") + "]";
    }
    const keys = Object.keys(value);
    const entries = keys.slice(0, 1000).map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : stringify(k)) + ": " + format(value[k], depth + 1, seen));
    if (keys.length > 1000) entries.push("... " + (keys.length - 1000) + " more keys");
    return "{" + entries.join(", ") + "}";
  }

  function print(...args) {
    if (!outputOpen) return;
    let text;
    try {
      text = args.map((arg) => format(arg, 0, [])).join(" ");
    } catch (error) {
      text = "[unprintable value: " + String(error && error.message) + "]";
    }
    outputOpen = hostOutput(text + "\n");
  }

  function toJson(value, what) {
    let json;
    try {
      json = stringify(value);
    } catch (error) {
      throw new TypeError(what + " needs a JSON value: " + (error && error.message));
    }
    if (json === undefined) throw new TypeError(what + " needs a JSON value (a string, number, boolean, null, array or plain object), got " + typeof value + ".");
    return json;
  }

  function FINAL(...args) {
    if (args.length === 0 || args[0] === undefined) {
      throw new TypeError("FINAL needs a value: call FINAL(answer) with a string or any JSON value (FINAL(\"\") is a valid empty answer).");
    }
    hostFinal(toJson(args[0], "FINAL"));
    throw FINAL_SIGNAL;
  }

  function FINAL_VAR(name) {
    if (typeof name !== "string") throw new TypeError("FINAL_VAR takes the variable's name as a string, e.g. FINAL_VAR(\"answer\").");
    if (!Object.prototype.hasOwnProperty.call(G, name) || G[name] === undefined) {
      throw new ReferenceError("FINAL_VAR(\"" + name + "\"): no top-level variable named '" + name + "' holds a value. Assign it first (const " + name + " = ...) or call FINAL(value).");
    }
    return FINAL(G[name]);
  }

  function describe(error) {
    if (error === FINAL_SIGNAL) return undefined;
    try {
      if (error instanceof Error || (error && typeof error === "object" && "message" in error && "stack" in error)) {
        return stringify({ name: String(error.name || "Error"), message: String(error.message), stack: String(error.stack || "") });
      }
      return stringify({ name: "Uncaught", message: format(error, 0, []), stack: "" });
    } catch (inner) {
      return stringify({ name: "Error", message: "an error that could not be described was thrown", stack: "" });
    }
  }

  function unwrap(json) {
    const reply = parseJson(json);
    if (reply.error !== undefined) {
      const error = new Error(reply.error);
      error.name = reply.errorName || "Error";
      throw error;
    }
    return reply.value;
  }

  function makeHostFunction(name, isAsync) {
    if (!isAsync) return { [name]: (...args) => unwrap(hostCallSync(name, stringify(args))) }[name];
    // The host starts the call and later settles it by id, so several calls can be in flight at once.
    return {
      [name]: (...args) =>
        new Promise((resolve, reject) => {
          const id = ++nextCallId;
          pending.set(id, { resolve, reject });
          hostCallStart(name, stringify(args), id);
        }),
    }[name];
  }

  const runtime = Object.freeze({
    global: G,
    run(body) {
      outputOpen = true;
      let promise;
      try {
        promise = body();
      } catch (error) {
        return Promise.resolve(describe(error));
      }
      return promise.then(() => undefined, describe);
    },
    settle(id, json) {
      const call = pending.get(id);
      if (!call) return;
      pending.delete(id);
      try {
        call.resolve(unwrap(json));
      } catch (error) {
        call.reject(error);
      }
    },
    expose(name, isAsync) {
      define(name, makeHostFunction(name, isAsync), false);
    },
    stub(name, message) {
      define(name, { [name]: function () { throw new Error(message); } }[name], false);
    },
  });

  define("${RUNTIME_NAME}", runtime, false);
  define("print", print, false);
  define("console", Object.freeze({ log: print, info: print, warn: print, error: print, debug: print }), false);
  define("FINAL", FINAL, false);
  define("FINAL_VAR", FINAL_VAR, false);
})();`;
