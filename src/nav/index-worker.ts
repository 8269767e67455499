// Analyses files for the index off the main thread: each worker has its own
// tree-sitter runtime and parsers. It is loaded by file URL, both from source
// (.ts) and from the build (.js). Symbols go back as one JSON string per file,
// which is what the disk cache stores, so the main thread never builds symbol
// objects for files nobody asks about.
import { parentPort } from "node:worker_threads";
import { analyzeFile } from "./file-analysis.ts";
import type { AnalysisBatch, AnalysisResult } from "./index-workers.ts";

parentPort?.on("message", async (batch: AnalysisBatch) => {
  const results: AnalysisResult[] = [];
  for (const task of batch.files) {
    const { symbols, ...record } = await analyzeFile(task.absolute, task.file, batch.maxFileBytes);
    results.push({ record, symbolsJson: JSON.stringify(symbols) });
  }
  parentPort?.postMessage({ id: batch.id, results });
});
