import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";
import type { Protocol } from "../engine/protocol.ts";
import { codeProtocol } from "./code/code-protocol.ts";
import { createJsonProtocol } from "./json/json-protocol.ts";
import { createTaggedProtocol } from "./tagged/tagged-protocol.ts";
import { createNativeProtocol } from "./native/index.ts";
import { PROTOCOL_NAMES, type ProtocolName } from "./protocol-names.ts";

export { PROTOCOL_NAMES, type ProtocolName };

/** The protocols `runSession({ protocol })` knows by name (the names themselves live in a leaf file the CLI can load cheaply). */
const PROTOCOLS: Record<ProtocolName, () => Protocol> = {
  code: () => codeProtocol,
  json: createJsonProtocol,
  tagged: () => createTaggedProtocol(),
  native: () => createNativeProtocol({ fallback: createJsonProtocol }),
};

/**
 * The protocol a session speaks: one of {@link PROTOCOL_NAMES} (default `code`), or a
 * `Protocol` object of the caller's own. Anything else throws `InvalidOptionsError`
 * (`option: "protocol"`) naming the valid choices.
 *
 * @example resolveProtocol("code").name // "code"
 */
export function resolveProtocol(protocol: ProtocolName | Protocol = "code"): Protocol {
  if (typeof protocol === "string") {
    const make = Object.hasOwn(PROTOCOLS, protocol) ? PROTOCOLS[protocol] : undefined;
    if (!make) throw new InvalidOptionsError({ option: "protocol", message: `runSession: unknown protocol '${protocol}'; the protocols are ${PROTOCOL_NAMES.map((name) => `'${name}'`).join(", ")}, or a Protocol object.` });
    return make();
  }
  const candidate = protocol as Partial<Protocol> | null;
  const missing = ["systemPrompt", "readReply", "renderResults"].filter((method) => typeof candidate?.[method as keyof Protocol] !== "function");
  if (typeof candidate !== "object" || candidate === null || typeof candidate.name !== "string" || missing.length > 0) {
    throw new InvalidOptionsError({ option: "protocol", message: `runSession: protocol must be one of ${PROTOCOL_NAMES.map((name) => `'${name}'`).join(", ")}, or a Protocol object with a name and ${missing.length > 0 ? missing.join(", ") : "systemPrompt, readReply and renderResults"}.` });
  }
  return candidate as Protocol;
}
