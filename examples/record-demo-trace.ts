// Records examples/demo-trace.jsonl, the session `npm run demo` replays.
// The model replies below are hand-written (no model server is involved); they
// run for real against this repository's own source through the sandbox and the
// nav tools. Re-record after changing them: node examples/record-demo-trace.ts
import { fileURLToPath } from "node:url";
import { runSession, ScriptedModel } from "../src/index.ts";
import { createNavTools } from "../src/nav/index.ts";

const repo = fileURLToPath(new URL("..", import.meta.url));
const tracePath = fileURLToPath(new URL("demo-trace.jsonl", import.meta.url));

const replies = [
  `I'll start with an overview of the repository and look for the symbol.

\`\`\`js
const repo = nav_info()
print(\`\${repo.files} files, \${repo.lines} lines; languages: \${repo.languages.slice(0, 3).map((l) => l.language).join(", ")}\`)
const hits = nav_search("runSession", { symbols: true })
print(hits.matches.map((m) => \`\${m.kind} \${m.symbol} at \${m.path}:\${m.line}\`).join("\\n"))
\`\`\``,
  `The function is in src/session/run-session.ts. Its default turn limit is a named constant; let me read it.

\`\`\`js
const definition = hits.matches.find((m) => m.kind === "function" && m.symbol === "runSession")
const constant = nav_read("DEFAULT_MAX_ITERATIONS")
print(definition.path)
print(constant.text)
\`\`\``,
  `\`\`\`js
const turns = Number(constant.text.match(/=\\s*([\\d_]+)/)[1].replace(/_/g, ""))
FINAL(\`runSession is defined in \${definition.path}; by default a session allows \${turns} model turns (DEFAULT_MAX_ITERATIONS).\`)
\`\`\``,
];

const nav = await createNavTools(repo);
const result = await runSession({
  question: "Where is runSession defined, and how many model turns does a session allow by default?",
  model: new ScriptedModel(replies, { modelId: "hand-written-replies" }),
  repo: nav,
  tracePath,
});
await nav.close();
console.log(result.status, JSON.stringify(result.answer));
