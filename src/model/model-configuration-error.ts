/**
 * A model client cannot be built from the options and environment it was given,
 * e.g. no model name. The message says which option or environment variable to set.
 */
export class ModelConfigurationError extends Error {
  override readonly name = "ModelConfigurationError";
  /** The missing or invalid setting, e.g. `model`. */
  readonly setting: string;

  constructor({ setting, message }: { setting: string; message: string }) {
    super(message);
    this.setting = setting;
  }
}
