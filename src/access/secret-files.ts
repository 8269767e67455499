// Kept apart from the read rule (and its glob and gitignore libraries) so the
// configuration table can name the default without loading them.

/**
 * Files that usually hold secrets, refused by default even when git tracks
 * them. A pattern without `/` matches a file's name in any directory.
 */
export const DEFAULT_SECRET_FILES: readonly string[] = [
  ".env*",
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "*.keystore",
  "*.jks",
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".netrc",
  ".pgpass",
  ".htpasswd",
  ".git-credentials",
  "credentials",
  "credentials.json",
  "*.credentials",
  "**/.aws/**",
  "**/.ssh/**",
  "**/.docker/config.json",
  "**/.kube/config",
  "secrets.*",
];

/**
 * Reads the `secretFiles` configuration value: comma-separated glob patterns,
 * or `none` for no secret-file patterns at all.
 *
 * @example parseSecretFiles(".env*, *.pem") // [".env*", "*.pem"]
 */
export function parseSecretFiles(text: string): string[] {
  if (text.trim().toLowerCase() === "none") return [];
  return text.split(",").map((pattern) => pattern.trim()).filter((pattern) => pattern !== "");
}
