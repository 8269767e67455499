import { composeHooks } from "../../src/index.ts";
import { hooksContract } from "./hooks.contract.ts";

hooksContract(composeHooks);
