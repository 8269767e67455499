/** A protocol's name as `runSession({ protocol })` takes it. */
export type ProtocolName = "code" | "json" | "tagged" | "native";

/** The names `resolveProtocol` knows, in the order they are listed in errors. */
export const PROTOCOL_NAMES: readonly ProtocolName[] = ["code", "json", "tagged", "native"];
