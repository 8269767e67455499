/**
 * The `nlTools` config value as `runSession` takes it: `all` → every tool, `none` →
 * none, otherwise comma-separated tool names.
 *
 * @example parseNlTools("spawn_sub_session, set_reminder") // ["spawn_sub_session", "set_reminder"]
 */
export function parseNlTools(value: string): boolean | string[] {
  const trimmed = value.trim();
  if (trimmed === "all") return true;
  if (trimmed === "none" || trimmed === "") return false;
  return trimmed.split(",").map((name) => name.trim()).filter((name) => name !== "");
}
