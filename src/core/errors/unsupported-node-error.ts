/**
 * rlmkit was loaded on a Node older than it supports. isolated-vm 7, the
 * sandbox, ships prebuilt binaries for Node 24 only, so the check runs before
 * isolated-vm loads and names the fix instead of the native loader's error.
 */
export class UnsupportedNodeError extends Error {
  override readonly name = "UnsupportedNodeError";
  /** The running Node's version, e.g. `20.20.2`. */
  readonly nodeVersion: string;
  /** The oldest major version that works, e.g. `24`. */
  readonly requiredMajor: number;

  constructor({ nodeVersion, requiredMajor }: { nodeVersion: string; requiredMajor: number }) {
    super(
      `rlmkit needs Node ${requiredMajor} or newer, and this is Node ${nodeVersion} (its sandbox, isolated-vm, ships binaries for Node ${requiredMajor}). ` +
        `Run your project on Node ${requiredMajor}: install it (e.g. \`npm install -D node@${requiredMajor}\`, after which npm scripts and npx run on it) and start your code with it.`,
    );
    this.nodeVersion = nodeVersion;
    this.requiredMajor = requiredMajor;
  }
}
