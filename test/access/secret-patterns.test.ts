/**
 * The read rule tests every file against all secret-file patterns at once (one
 * joined regular expression for names, one for paths). This pins that the joined
 * test decides exactly as testing each pattern with picomatch alone does.
 */
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import picomatch from "picomatch";
import { afterAll, expect, test } from "vitest";
import { DEFAULT_SECRET_FILES, ReadRule } from "../../src/index.ts";

const root = mkdtempSync(join(tmpdir(), "rlmkit-secret-patterns-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Each pattern on its own: a pattern without `/` matches a name in any folder, one with `/` a path from the root. */
function secretByOnePattern(patterns: readonly string[], relative: string): boolean {
  return patterns.some((pattern) => picomatch(pattern, { dot: true, basename: !pattern.includes("/") })(relative));
}

const segment = fc.oneof(
  fc.constantFrom(".env", ".env.local", "server.pem", "id_rsa", "id_rsa.pub", ".aws", "credentials", "credentials.json", "a.key", "key", ".npmrc", "src", "x.p12", "secrets", "config", ".ssh", "keys(old).txt", "a(b).json", "[x].key"),
  fc.stringMatching(/^[a-z._-]{1,8}$/),
);
const relativePath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join("/"));

test.for([
  { label: "the default patterns", patterns: DEFAULT_SECRET_FILES },
  { label: "patterns with folders and braces", patterns: ["config/*.json", "**/secrets/**", "*.{pem,key}", "deploy/**/id_*"] },
  // Glob syntax in a name: picomatch also matches a path equal to the pattern as written.
  { label: "patterns holding glob syntax", patterns: ["keys(old).txt", "config/a(b).json", "[x].key"] },
])("$label: the joined test refuses exactly the files some single pattern matches", ({ patterns }) => {
  const rule = new ReadRule(root, { secretFiles: patterns });
  fc.assert(
    fc.property(relativePath, (relative) => {
      expect(rule.entryRefusal(relative, false)?.reason === "secret").toBe(secretByOnePattern(patterns, relative));
    }),
    { numRuns: 2_000 },
  );
});

test("no patterns refuse nothing", () => {
  expect(new ReadRule(root, { secretFiles: [] }).entryRefusal(".env", false)).toBeUndefined();
});
