// Imported first by src/index.ts, for its side effect: on an older Node it throws
// before any module that loads isolated-vm is evaluated.
import { UnsupportedNodeError } from "./core/errors/unsupported-node-error.ts";

/** The oldest Node major version rlmkit runs on. */
export const REQUIRED_NODE_MAJOR = 24;

/**
 * Throws {@link UnsupportedNodeError} when `version` (default: this process's
 * Node) is older than {@link REQUIRED_NODE_MAJOR}.
 */
export function assertSupportedNode(version: string = process.versions.node): void {
  if (Number(version.split(".")[0]) < REQUIRED_NODE_MAJOR) throw new UnsupportedNodeError({ nodeVersion: version, requiredMajor: REQUIRED_NODE_MAJOR });
}

assertSupportedNode();
