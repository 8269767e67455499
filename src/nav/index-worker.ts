// Analyses files for the index off the main thread: each worker has its own
// tree-sitter runtime and parsers. It is loaded by file URL, both from source
// (.ts) and from the build (.js). Symbols go back as one JSON text per file in
// UTF-8 bytes, which is what the disk cache stores, so the main thread never
// builds symbol objects for files nobody asks about.
import { parentPort } from "node:worker_threads";
import { analyzeFile } from "./file-analysis.ts";
import type { AnalysisBatch, AnalysisResult } from "./index-workers.ts";

parentPort?.on("message", async (batch: AnalysisBatch) => {
  const results: AnalysisResult[] = [];
  const transfer: ArrayBuffer[] = [];
  for (const task of batch.files) {
    const { symbols, ...record } = await analyzeFile(task.absolute, task.file, batch.maxFileBytes);
    // Encoded here and moved, not copied: the main thread keeps these bytes outside its heap.
    const symbolsJson = new TextEncoder().encode(JSON.stringify(symbols));
    results.push({ record, symbolsJson });
    transfer.push(symbolsJson.buffer);
    if (record.grams) transfer.push(record.grams.buffer as ArrayBuffer);
  }
  parentPort?.postMessage({ id: batch.id, results }, transfer);
});
