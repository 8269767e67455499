import { afterAll } from "vitest";
import { createProcessSandboxFactory } from "../../sandbox/index.ts";
import { sandboxContract } from "./sandbox.contract.ts";

const factory = createProcessSandboxFactory({ workers: 2 });
afterAll(() => factory.close());

sandboxContract(factory);
