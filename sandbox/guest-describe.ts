/**
 * Source of the guest runtime's descriptions, part of `GUEST_RUNTIME_SOURCE` (guest-runtime.ts), which
 * places it inside its closure: how printed values read (`format`), and the JSON descriptions of what a block threw
 * (`describe`) or what its compile threw (`describeCompile`), made by `described` from records with no prototype.
 * `described` and `describeCompile` use only what the runtime captured before any guest code ran (`stringify`,
 * `create`, `getPrototypeOf`, `getOwnPropertyDescriptor`, `COMPILE_ERRORS`); `format` and `describe` also use live
 * globals (`Object.keys`, `Array.isArray`, array methods) and the guest's own values, as they run for the block.
 */
export const GUEST_DESCRIBE_SOURCE = String.raw`
  function format(value, depth, seen) {
    if (typeof value === "string") return depth === 0 ? value : stringify(value);
    if (value === undefined) return "undefined";
    if (typeof value === "bigint") return StringOf(value) + "n";
    if (typeof value === "symbol") return value.toString();
    if (typeof value === "function") return "[Function " + (value.name || "anonymous") + "]";
    if (value === null || typeof value !== "object") return StringOf(value);
    if (value instanceof Error) return value.stack && depth === 0 ? StringOf(value.stack).split("\n")[0] : value.name + ": " + value.message;
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

  // A description as JSON, from an object with no prototype: no toJSON or setter of guest code is consulted.
  function described(name, message, stack, compile) {
    const record = create(null);
    record.name = name;
    record.message = message;
    record.stack = stack;
    if (compile) record.compile = true;
    return stringify(record);
  }

  function describe(error) {
    if (error === FINAL_SIGNAL) return undefined;
    try {
      if (error !== null && (typeof error === "object" || typeof error === "function") && "message" in error) {
        return described(StringOf(error.name || "Error"), StringOf(error.message), StringOf(error.stack || ""), false);
      }
      return described("Uncaught", format(error, 0, []), "", false);
    } catch (inner) {
      return described("Error", "an error that could not be described was thrown", "", false);
    }
  }

  // What a block's compile threw (V8 made it: a parse error, or one of its top-level declarations), read without
  // running guest code: its own message, and its kind from its prototype; never its stack (Error.prepareStackTrace).
  function describeCompile(error) {
    let name = "Error";
    let message = "the block could not be compiled";
    try {
      const prototype = getPrototypeOf(error);
      // Indexed, not iterated: an iterator is a method guest code can replace.
      for (let index = 0; index < COMPILE_ERRORS.length; index++) if (prototype === COMPILE_ERRORS[index][0]) name = COMPILE_ERRORS[index][1];
      const own = getOwnPropertyDescriptor(error, "message");
      if (own && typeof own.value === "string") message = own.value;
    } catch (inner) {
      // the defaults
    }
    return described(name, message, "", true);
  }`;
