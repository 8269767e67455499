export { createJsonProtocol, FAKED_RESULT_STOP } from "./json-protocol.ts";
