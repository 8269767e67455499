// A first search's scan of many files for one literal: each thread takes the next file, reads it
// whole, and collects the lines that hold the literal (the first hit of each line, its line number
// and the line's bytes). The caller (src/nav/native-first-search.ts) decodes the lines and applies
// everything else a search does (patterns, line texts, the limit), so the lines it gives are those
// of the JavaScript scan.
//
// scan(paths, needle, ignoreCase, wanted, threads, deadlineMs, sniffBytes, maxLineBytes, also?, spans?, read?, identity?, grams?, anyOf?) returns
// { promise, cancel }. `spans` is { fd, at: Float64Array, length: Int32Array }: the index's open spans file
// and, per path, where its spans are in it (-1: none); each hit of such a file is then named by the
// innermost symbol around its line (span_names.cc). `read` (a Uint8Array, one value per path) makes the scan state
// every path and read only those marked 1 (the others answer -3): a walk then needs no `stat` of its own. `identity`
// (a Float64Array, a device and an inode number per path, NaN when not known) names the file each path must lead to:
// a path that leads to another (-4) is not read. `grams` is the index's trigram filters: the filter file's bytes
// (`data`, copied) or its open file (`fd` and `bytes`, read by the scan's first thread), and per path where its filter
// is (`at`, -1: none; `length`), with the `trigrams` a file's filter must have every one of: a path ruled out is not read (-3).
// The promise resolves to
//   { files: Int32Array  (per path: bytes read, -1 unreadable, -2 not read, -3 not read (only stated, with `read`), -4 another file than
//                         the one listed (see `identity`); then 1 if binary, else 0;
//                         then its hits' count; then 1 if the path was a symlink, read through: the caller compares
//                         its `stats` with the file it listed),
//     hits: Int32Array   (per hit: path index, line (1-based), hit offset in the line in bytes,
//                         line offset in `bytes`, line length in bytes, 1 if the line is all ASCII,
//                         then its symbol's name offset in `names`, its length, and its kind: -2 not
//                         named, -1 no symbol, 0 UTF-8, 1 ASCII),
//     bytes: ArrayBuffer (the lines' bytes, each followed by a line feed, even one that had none),
//     names: ArrayBuffer (the names' bytes, one after the other),
//     stats: Float64Array (with `read`, or when a path was read through a symlink: per path, its stats as stat()
//                         gives them, stat_values.h: of the file read, or of the path for one only stated; zeros
//                         for one neither read nor stated),
//     stopped: 0 | 1 | 2 | 3 (done, deadline passed, cancelled, more than maxLineBytes of lines) }.
// `wanted` bounds the hits: once the files taken hold that many, no thread takes another file.
// `maxLineBytes` bounds the lines' bytes kept: past it the scan stops, and answers no lines.
//
// The scan runs on threads of its own, not on libuv's pool (which a long scan would hold from Node's
// file system work), and answers through a thread-safe function. When the JavaScript environment
// ends first (a worker thread terminated), the function's finalizer cancels the scan and the threads
// drop their results: nothing touches the environment after it is gone.
#include "rlmkit_native.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include "scan_args.h"
#include "scan_job.h"
#include "stat_values.h"

Job::~Job() {
  if (spans_fd >= 0) close(spans_fd);
  if (grams_fd >= 0) close(grams_fd);
}

namespace {

// The most bytes of lines an answer carries (offsets are 32-bit); past it the scan answers as stopped (3).
constexpr int64_t kMaxAnswerBytes = int64_t{1} << 30;

napi_value Int32Values(napi_env env, const std::vector<int32_t>& values) {
  void* data = nullptr;
  napi_value buffer, array;
  if (napi_create_arraybuffer(env, values.size() * sizeof(int32_t), &data, &buffer) != napi_ok) return nullptr;
  if (!values.empty()) memcpy(data, values.data(), values.size() * sizeof(int32_t));
  if (napi_create_typedarray(env, napi_int32_array, values.size(), buffer, 0, &array) != napi_ok) return nullptr;
  return array;
}

// The answer, made on the JavaScript thread; nullptr when the environment cannot make it.
napi_value Answer(napi_env env, Job& job) {
  std::vector<int32_t> files;
  int64_t total_bytes = 0;
  int64_t total_names = 0;
  int64_t all_hits = 0;
  for (const FileResult& result : job.results) {
    total_bytes += static_cast<int64_t>(result.lines.size());
    total_names += static_cast<int64_t>(result.names.size());
    all_hits += static_cast<int64_t>(result.hits.size());
  }
  const bool fits = total_bytes + total_names <= job.max_line_bytes && total_bytes <= kMaxAnswerBytes && total_names <= kMaxAnswerBytes;
  if (!fits) job.Stop(kTooManyLines);
  const bool with_lines = fits && job.stopped.load() != kTooManyLines;
  // The hits' values, when the lines are answered.
  const int64_t total_hits = with_lines ? all_hits : 0;
  files.reserve(job.results.size() * 4);
  bool any_link = false;
  for (const FileResult& result : job.results) {
    files.push_back(result.length);
    files.push_back(result.binary);
    files.push_back(with_lines ? static_cast<int32_t>(result.hits.size() / kHitStride) : 0);
    files.push_back(result.via_link);
    any_link = any_link || result.via_link != 0;
  }
  void* bytes_data = nullptr;
  void* names_data = nullptr;
  void* hits_data = nullptr;
  napi_value bytes, names, hits_buffer, out, stopped, files_array, hits_array;
  if (napi_create_arraybuffer(env, with_lines ? static_cast<size_t>(total_bytes) : 0, &bytes_data, &bytes) != napi_ok) return nullptr;
  if (napi_create_arraybuffer(env, with_lines ? static_cast<size_t>(total_names) : 0, &names_data, &names) != napi_ok) return nullptr;
  if (napi_create_arraybuffer(env, static_cast<size_t>(total_hits) * sizeof(int32_t), &hits_data, &hits_buffer) != napi_ok) return nullptr;
  if (with_lines) {
    int64_t at = 0;
    int64_t names_at = 0;
    int32_t* hits = static_cast<int32_t*>(hits_data);
    // Each hit's line and name offsets are made relative to the whole answer's bytes and names as it is copied.
    for (const FileResult& result : job.results) {
      for (size_t i = 0; i < result.hits.size(); i += kHitStride, hits += kHitStride) {
        memcpy(hits, &result.hits[i], kHitStride * sizeof(int32_t));
        hits[3] += static_cast<int32_t>(at);
        if (hits[kHitName + 2] >= kUtf8Name) hits[kHitName] += static_cast<int32_t>(names_at);
      }
      if (!result.lines.empty()) memcpy(static_cast<char*>(bytes_data) + at, result.lines.data(), result.lines.size());
      if (!result.names.empty()) memcpy(static_cast<char*>(names_data) + names_at, result.names.data(), result.names.size());
      at += static_cast<int64_t>(result.lines.size());
      names_at += static_cast<int64_t>(result.names.size());
    }
  }
  if ((files_array = Int32Values(env, files)) == nullptr) return nullptr;
  if (napi_create_typedarray(env, napi_int32_array, static_cast<size_t>(total_hits), hits_buffer, 0, &hits_array) != napi_ok) return nullptr;
  if (napi_create_object(env, &out) != napi_ok || napi_create_int32(env, job.stopped.load(), &stopped) != napi_ok) return nullptr;
  napi_set_named_property(env, out, "files", files_array);
  napi_set_named_property(env, out, "hits", hits_array);
  napi_set_named_property(env, out, "bytes", bytes);
  napi_set_named_property(env, out, "names", names);
  if (!job.read.empty() || any_link) {
    void* stats_data = nullptr;
    napi_value stats_buffer, stats;
    if (napi_create_arraybuffer(env, job.results.size() * kStatStride * sizeof(double), &stats_data, &stats_buffer) != napi_ok) return nullptr;
    for (size_t index = 0; index < job.results.size(); index++) memcpy(static_cast<double*>(stats_data) + index * kStatStride, job.results[index].stat, kStatStride * sizeof(double));
    if (napi_create_typedarray(env, napi_float64_array, job.results.size() * kStatStride, stats_buffer, 0, &stats) != napi_ok) return nullptr;
    napi_set_named_property(env, out, "stats", stats);
  }
  napi_set_named_property(env, out, "stopped", stopped);
  return out;
}

// Called on the JavaScript thread with the finished job, or with no environment when the thread-safe
// function is torn down with the job still queued: then the job is only freed.
void Deliver(napi_env env, napi_value, void*, void* data) {
  std::unique_ptr<Job> job(static_cast<Job*>(data));
  if (env == nullptr) return;
  napi_value answer = nullptr;
  try {
    answer = Answer(env, *job);
  } catch (const std::bad_alloc&) {
    answer = nullptr;
  }
  if (answer != nullptr) {
    napi_resolve_deferred(env, job->deferred, answer);
    return;
  }
  napi_value message, error;
  if (napi_create_string_utf8(env, "the native scan could not make its answer", NAPI_AUTO_LENGTH, &message) == napi_ok &&
      napi_create_error(env, nullptr, message, &error) == napi_ok) {
    napi_reject_deferred(env, job->deferred, error);
  }
}

// The thread-safe function's finalizer: its environment is done with it (released, or torn down).
void Finalized(napi_env, void* data, void*) {
  std::unique_ptr<std::shared_ptr<Shared>> shared(static_cast<std::shared_ptr<Shared>*>(data));
  std::lock_guard<std::mutex> lock((*shared)->mutex);
  (*shared)->delivering = false;
  (*shared)->cancelled.store(true);
  // The function surely exists while its finalizer runs, whichever Node this is.
  if ((*shared)->holding) {
    (*shared)->holding = false;
    napi_release_threadsafe_function((*shared)->deliver, napi_tsfn_release);
  }
}

// The scan's first thread: scans with the others, then hands the job to the JavaScript thread.
void RunScan(Job* job) noexcept {
  std::atomic<size_t> next{0};
  LoadGrams(*job);
  RunOnThreads(job->threads, [job, &next]() { Work(*job, next); });
  std::shared_ptr<Shared> shared = job->shared;
  bool handed = false;
  {
    std::lock_guard<std::mutex> lock(shared->mutex);
    // Unless the environment ended (its finalizer let go of the hold): nobody waits for the answer then.
    if (shared->delivering) {
      shared->holding = false;
      handed = napi_call_threadsafe_function(shared->deliver, job, napi_tsfn_nonblocking) == napi_ok;
      // A call refused (napi_closing) must not be followed by a release: the function may be gone.
      if (handed) napi_release_threadsafe_function(shared->deliver, napi_tsfn_release);
    }
  }
  if (!handed) delete job;
}

napi_value Cancel(napi_env env, napi_callback_info info) {
  void* data = nullptr;
  napi_get_cb_info(env, info, nullptr, nullptr, nullptr, &data);
  static_cast<std::shared_ptr<Shared>*>(data)->get()->cancelled.store(true);
  return nullptr;
}

void FreeShared(napi_env, void* data, void*) { delete static_cast<std::shared_ptr<Shared>*>(data); }

// A count from JavaScript, at least `least` (NaN too) and at most INT64_MAX.
int64_t Clamp(double value, int64_t least) {
  if (!(value >= static_cast<double>(least))) return least;
  if (value >= 9.2e18) return INT64_MAX;
  return static_cast<int64_t>(value);
}

napi_value StartScan(napi_env env, napi_callback_info info) {
  size_t argc = 14;
  napi_value argv[14];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 8) return Throw(env, "scan(paths, needle, ignoreCase, wanted, threads, deadlineMs, sniffBytes, maxLineBytes, also?, spans?, read?, identity?, grams?, anyOf?)");
  auto job = std::make_unique<Job>();
  if (!ReadStrings(env, argv[0], job->paths)) return Throw(env, "paths must be an array of strings");
  napi_get_value_bool(env, argv[2], &job->ignore_case);
  napi_valuetype also_type = napi_undefined;
  if (argc >= 9) napi_typeof(env, argv[8], &also_type);
  napi_valuetype any_of_type = napi_undefined;
  if (argc >= 14) napi_typeof(env, argv[13], &any_of_type);
  const char* wrong = ReadNeedles(env, argv[1], also_type == napi_undefined ? nullptr : argv[8], any_of_type == napi_undefined ? nullptr : argv[13], *job);
  if (wrong != nullptr) return Throw(env, wrong);
  napi_valuetype spans_type = napi_undefined;
  if (argc >= 10) napi_typeof(env, argv[9], &spans_type);
  if (spans_type != napi_undefined && (spans_type != napi_object || !ReadSpans(env, argv[9], *job))) {
    return Throw(env, "spans must be { fd, at: Float64Array, length: Int32Array } with one place per path");
  }
  napi_valuetype read_type = napi_undefined;
  if (argc >= 11) napi_typeof(env, argv[10], &read_type);
  if (read_type != napi_undefined && !ReadMask(env, argv[10], *job)) return Throw(env, "read must be a Uint8Array with one value per path");
  napi_valuetype identity_type = napi_undefined;
  if (argc >= 12) napi_typeof(env, argv[11], &identity_type);
  if (identity_type != napi_undefined && !ReadIdentity(env, argv[11], *job)) return Throw(env, "identity must be a Float64Array with two values (device, inode) per path");
  napi_valuetype grams_type = napi_undefined;
  if (argc >= 13) napi_typeof(env, argv[12], &grams_type);
  if (grams_type != napi_undefined && (grams_type != napi_object || !ReadGrams(env, argv[12], *job))) {
    return Throw(env, "grams must be { data: Uint8Array, at: Float64Array, length: Int32Array, trigrams: Uint32Array } with one place per path");
  }
  double wanted = 0, deadline = 0, sniff = 0, max_line_bytes = 0;
  int32_t threads = 1;
  napi_get_value_double(env, argv[3], &wanted);
  napi_get_value_int32(env, argv[4], &threads);
  napi_get_value_double(env, argv[5], &deadline);
  napi_get_value_double(env, argv[6], &sniff);
  napi_get_value_double(env, argv[7], &max_line_bytes);
  job->wanted = Clamp(wanted, 1);
  job->threads = threads;
  job->deadline_ms = deadline;
  job->sniff = static_cast<size_t>(Clamp(sniff, 0));
  job->max_line_bytes = Clamp(max_line_bytes, 0);
  job->results.resize(job->paths.size());
  job->shared = std::make_shared<Shared>();

  // Everything that may fail or throw comes before the thread-safe function exists: once it does, the scan runs.
  auto finalized = std::make_unique<std::shared_ptr<Shared>>(job->shared);
  auto flag = std::make_unique<std::shared_ptr<Shared>>(job->shared);
  napi_value promise = nullptr, name = nullptr, cancel = nullptr, out = nullptr;
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok || napi_create_string_utf8(env, "rlmkit literal scan", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_function(env, "cancel", NAPI_AUTO_LENGTH, Cancel, flag.get(), &cancel) != napi_ok) {
    return Throw(env, "the scan could not be started");
  }
  if (napi_add_finalizer(env, cancel, flag.get(), FreeShared, nullptr, nullptr) != napi_ok) return Throw(env, "the scan could not be started");
  flag.release();
  if (napi_create_object(env, &out) != napi_ok || napi_set_named_property(env, out, "promise", promise) != napi_ok ||
      napi_set_named_property(env, out, "cancel", cancel) != napi_ok) {
    return Throw(env, "the scan could not be started");
  }
  if (napi_create_threadsafe_function(env, nullptr, nullptr, name, 0, 1, finalized.get(), Finalized, nullptr, Deliver, &job->shared->deliver) != napi_ok) {
    return Throw(env, "the scan could not be started");
  }
  finalized.release();
  job->shared->holding = true;
  Job* running = job.release();
  try {
    std::thread(RunScan, running).detach();
  } catch (...) {
    // No thread (none could start, or no memory for one): this thread scans, and the answer comes as it would.
    RunScan(running);
  }
  return out;
}

}  // namespace

napi_value LiteralScan(napi_env env, napi_callback_info info) {
  try {
    return StartScan(env, info);
  } catch (const std::bad_alloc&) {
    return Throw(env, "not enough memory to start the scan");
  }
}
