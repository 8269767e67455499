// The job of one scan (see literal_scan.cc): what its threads share with the JavaScript side, what
// they find per file, and the work of one thread (scan_files.cc).
#ifndef RLMKIT_SCAN_JOB_H_
#define RLMKIT_SCAN_JOB_H_

#include <node_api.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "literal_finder.h"

// Per hit: file index, line (1-based), hit offset in the line, line offset in `lines`, line length, 1 if
// the line is ASCII, then its symbol's name (span_names.cc): offset in `names`, length, and kind.
constexpr int kHitStride = 9;
constexpr int kHitName = 6;
// A hit's name kind: not named here (no spans given, or spans not well formed), no symbol around the line,
// a name beyond ASCII (UTF-8), an ASCII name.
constexpr int32_t kUnnamed = -2;
constexpr int32_t kNoSymbol = -1;
constexpr int32_t kUtf8Name = 0;
constexpr int32_t kAsciiName = 1;

enum Stopped { kDone = 0, kDeadline = 1, kCancelled = 2, kTooManyLines = 3 };

// What the scan's threads and the JavaScript side share: whether the scan was cancelled, and whether
// the thread-safe function still exists (its finalizer, on the JavaScript thread, says it does not).
struct Shared {
  std::atomic<bool> cancelled{false};
  std::mutex mutex;
  bool delivering = true;
  // The scan thread's hold on the thread-safe function, until it calls it: when the environment ends
  // first, the finalizer lets go of it (Node from 24.14 waits for every hold before it frees the function).
  napi_threadsafe_function deliver = nullptr;
  bool holding = false;
};

struct FileResult {
  // -3 when the scan was asked only for the file's stats (see Job::read); -4 when the path led to another file than
  // the one listed (see Job::identity).
  int32_t length = -2;
  int32_t binary = 0;
  // 1 when the path was a symlink, read through (see ReadWhole in scan_files.cc).
  int32_t via_link = 0;
  std::vector<int32_t> hits;  // kHitStride values per hit, the line offset relative to `lines`, the name's to `names`
  std::string lines;
  std::string names;
  // The file's stats (stat_values.h): of the file read (`fstat`), or of the path (`lstat`) for one only stated; zeros when neither.
  double stat[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
};

struct Job {
  std::vector<std::string> paths;
  LiteralFinder needle;  // lower-cased when ignoring case (an ASCII needle)
  // Groups of needles a kept line must hold one of each, lower-cased likewise: a group of one for each needle of `also`
  // (a pattern's other required literals), then the groups of `anyOf` (its required alternatives).
  std::vector<std::vector<LiteralFinder>> any_of;
  bool ignore_case = false;
  int64_t wanted = 0;
  int64_t max_line_bytes = 0;
  int threads = 1;
  double deadline_ms = 0;
  size_t sniff = 0;
  std::shared_ptr<Shared> shared;
  std::atomic<int64_t> found{0};
  std::atomic<int64_t> line_bytes{0};
  std::atomic<int> stopped{kDone};
  std::vector<FileResult> results;
  napi_deferred deferred = nullptr;
  // The index's spans file (a descriptor of the job's own, or -1) and where each path's spans are in it (-1: none).
  int spans_fd = -1;
  std::vector<double> spans_at;
  std::vector<int32_t> spans_length;
  // Per path, the device and inode number of the file the list names (NaN: not known). A file read whose own differ
  // is not the one listed (the path leads elsewhere now: a link, a folder swapped for one): it is not read (-4).
  std::vector<double> identity;
  // When not empty, every path is stated and only those marked 1 are read (the others answer -3); once the files
  // taken hold `wanted` hits, the rest are stated without being read.
  std::vector<uint8_t> read;
  // The index's trigram filters (see src/nav/trigram-filter.ts): the filter file's bytes (a copy, or read from a
  // descriptor of the job's own by the scan's first thread: `grams_fd`, `grams_bytes`), where each path's filter is in
  // them (-1: none, the path is read), and the trigrams a file's filter must have every one of for the file to be read.
  // A path whose filter says it cannot hold them all is not read, and only stated when `read` is given (-3 either way).
  std::unique_ptr<uint8_t[]> grams;  // not zeroed first: every byte is copied or read in
  size_t grams_size = 0;
  int grams_fd = -1;
  int64_t grams_bytes = 0;
  std::vector<double> grams_at;
  std::vector<int32_t> grams_length;
  std::vector<uint32_t> trigrams;

  Job() = default;
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;
  ~Job();

  // The first reason to stop is the one reported.
  void Stop(int reason) {
    int expected = kDone;
    stopped.compare_exchange_strong(expected, reason);
  }
};

// One thread's share of a job: the next file, until none is left or the scan must stop.
void Work(Job& job, std::atomic<size_t>& next) noexcept;

#endif  // RLMKIT_SCAN_JOB_H_
