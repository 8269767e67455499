export { createTaggedProtocol, type TaggedProtocolOptions } from "./tagged-protocol.ts";
