export { createNativeProtocol, type NativeProtocolOptions } from "./native-protocol.ts";
