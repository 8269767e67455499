export { createNativeProtocol, type NativeProtocolOptions } from "./native-protocol.ts";
export { readNativeReply } from "./read-native-reply.ts";
export { renderToolMessages } from "./render-tool-messages.ts";
