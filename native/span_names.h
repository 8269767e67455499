// Names each hit of a scanned file with the innermost symbol around its line, from the file's spans in
// the index's disk cache (see span_names.cc).
#ifndef RLMKIT_SPAN_NAMES_H_
#define RLMKIT_SPAN_NAMES_H_

#include <cstdint>
#include <vector>

#include "scan_job.h"

// Reads the spans piece of `length` bytes at `at` in the open spans file `fd` (a line of the file: a line
// feed before and after it) and fills each hit's name (kHitName*: the name's bytes, appended to
// `result.names` once per run of hits in one symbol, or kNoSymbol). False, the hits left unnamed, when
// the piece is not well formed (the caller's JavaScript then reads it, and reports a damaged cache).
bool NameHits(int fd, int64_t at, int32_t length, FileResult& result, std::vector<char>& scratch);

#endif  // RLMKIT_SPAN_NAMES_H_
