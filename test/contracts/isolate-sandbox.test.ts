import { isolateSandboxFactory } from "../../sandbox/index.ts";
import { sandboxContract } from "./sandbox.contract.ts";

sandboxContract(isolateSandboxFactory);
