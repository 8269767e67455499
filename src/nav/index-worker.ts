// Analyses files for the index off the main thread: each worker has its own
// tree-sitter runtime and parsers. It is loaded by file URL, both from source
// (.ts) and from the build (.js). Symbols go back as one piece per file in
// UTF-8 bytes (see symbol-piece.ts), which is what the disk cache stores, so the
// main thread never builds symbol objects for files nobody asks about.
import { parentPort } from "node:worker_threads";
import { analyzeFile, unreadRecord } from "./file-analysis.ts";
import type { AnalysisBatch, AnalysisResult } from "./index-workers.ts";
import { encodeSymbolPiece } from "./symbol-piece.ts";

parentPort?.on("message", async (batch: AnalysisBatch) => {
  const results: AnalysisResult[] = [];
  const transfer: ArrayBuffer[] = [];
  for (const task of batch.files) {
    const analyzed = await analyzeFile(task.absolute, task.file, batch.maxFileBytes);
    const { symbols, ...record } = analyzed ?? unreadRecord(task.file);
    // Encoded here and moved, not copied: the main thread keeps these bytes outside its heap.
    const symbolPiece = encodeSymbolPiece(symbols);
    results.push({ record, symbolPiece, ...(analyzed ? {} : { unread: true }) });
    transfer.push(symbolPiece.buffer as ArrayBuffer);
    if (record.grams) transfer.push(record.grams.buffer as ArrayBuffer);
  }
  parentPort?.postMessage({ id: batch.id, results }, transfer);
});
