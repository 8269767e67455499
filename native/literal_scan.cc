// A first search's scan of many files for one literal: each thread takes the next file, reads it
// whole, and collects the lines that hold the literal (the first hit of each line, its line number
// and the line's bytes). The caller (src/nav/native-first-search.ts) decodes the lines and applies
// everything else a search does (patterns, line texts, the limit), so the lines it gives are those
// of the JavaScript scan.
//
// scan(paths, needle, ignoreCase, wanted, threads, deadlineMs, sniffBytes, maxLineBytes) returns
// { promise, cancel }. The promise resolves to
//   { files: Int32Array  (per path: bytes read, -1 unreadable, -2 not read; then 1 if binary, else 0),
//     hits: Int32Array   (per hit: path index, line (1-based), hit offset in the line in bytes,
//                         line offset in `bytes`, line length in bytes, 1 if the line is all ASCII),
//     bytes: ArrayBuffer (the lines' bytes, without their line feeds),
//     stopped: 0 | 1 | 2 | 3 (done, deadline passed, cancelled, more than maxLineBytes of lines) }.
// `wanted` bounds the hits: once the files taken hold that many, no thread takes another file.
// `maxLineBytes` bounds the lines' bytes kept: past it the scan stops and keeps nothing more.
#include "rlmkit_native.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace {

constexpr int kHitStride = 6;

struct FileResult {
  int32_t length = -2;
  int32_t binary = 0;
  std::vector<int32_t> hits;  // kHitStride values per hit, the line offset relative to `lines`
  std::string lines;
};

struct Job {
  std::vector<std::string> paths;
  std::string needle;  // lower-cased when ignoring case (an ASCII needle)
  bool ignore_case = false;
  int64_t wanted = 0;
  int64_t max_line_bytes = 0;
  std::atomic<int64_t> line_bytes{0};
  int threads = 1;
  double deadline_ms = 0;
  size_t sniff = 0;
  std::shared_ptr<std::atomic<bool>> cancelled;
  std::atomic<int64_t> found{0};
  std::atomic<int> stopped{0};
  std::vector<FileResult> results;
  napi_deferred deferred = nullptr;
  napi_async_work work = nullptr;
};

double NowMs() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<double>(now.tv_sec) * 1000.0 + static_cast<double>(now.tv_nsec) / 1e6;
}

inline unsigned char Lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

// The next occurrence of the needle in [from, end), or nullptr.
const char* Find(const Job& job, const char* from, const char* end) {
  const std::string& needle = job.needle;
  const size_t n = needle.size();
  if (static_cast<size_t>(end - from) < n) return nullptr;
  if (!job.ignore_case) return static_cast<const char*>(memmem(from, end - from, needle.data(), n));
  const unsigned char first = static_cast<unsigned char>(needle[0]);
  const unsigned char upper = first >= 'a' && first <= 'z' ? first - 32 : first;
  const char* last = end - n;
  for (const char* at = from; at <= last;) {
    const char* a = static_cast<const char*>(memchr(at, first, last - at + 1));
    const char* b = upper == first ? nullptr : static_cast<const char*>(memchr(at, upper, (a ? a : last + 1) - at));
    const char* candidate = b ? b : a;
    if (!candidate) return nullptr;
    size_t i = 1;
    while (i < n && Lower(static_cast<unsigned char>(candidate[i])) == static_cast<unsigned char>(needle[i])) i++;
    if (i == n) return candidate;
    at = candidate + 1;
  }
  return nullptr;
}

// Written as plain loops over bytes so that the compiler vectorises them.
bool AllAscii(const char* from, const char* to) {
  unsigned char seen = 0;
  for (const char* at = from; at < to; at++) seen |= static_cast<unsigned char>(*at);
  return seen < 0x80;
}

int32_t CountLineFeeds(const char* from, const char* to) {
  int32_t count = 0;
  for (const char* at = from; at < to; at++) count += *at == '\n';
  return count;
}

// The start of the line that holds `at`.
const char* LineStart(const char* data, const char* at) {
  while (at > data && at[-1] != '\n') at--;
  return at;
}

// Reads the whole file into `buffer`; its length, or -1. Only a regular file is read: a path
// replaced by a FIFO since the walk must not block a thread (O_NONBLOCK opens it at once).
int64_t ReadWhole(const std::string& path, std::vector<char>& buffer) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return -1;
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    return -1;
  }
  size_t length = 0;
  for (;;) {
    if (buffer.size() - length < 65536) buffer.resize(buffer.size() * 2);
    ssize_t got = read(fd, buffer.data() + length, buffer.size() - length);
    if (got < 0) {
      close(fd);
      return -1;
    }
    if (got == 0) break;
    length += static_cast<size_t>(got);
    if (length > INT32_MAX) {
      close(fd);
      return -1;
    }
  }
  close(fd);
  return static_cast<int64_t>(length);
}

void ScanFile(Job& job, size_t index, std::vector<char>& buffer) {
  FileResult& result = job.results[index];
  int64_t length = -1;
  try {
    length = ReadWhole(job.paths[index], buffer);
  } catch (const std::bad_alloc&) {
    // A file too large to hold is one that cannot be read.
  }
  if (length < 0) {
    result.length = -1;
    return;
  }
  result.length = static_cast<int32_t>(length);
  const char* data = buffer.data();
  const char* end = data + length;
  const size_t sniff = std::min(job.sniff, static_cast<size_t>(length));
  if (memchr(data, 0, sniff) != nullptr) {
    result.binary = 1;
    return;
  }
  // A text ending in a line feed has no empty last line to match.
  const char* text_end = length > 0 && end[-1] == '\n' ? end - 1 : end;
  int32_t line = 0;
  const char* counted = data;
  for (const char* at = data; at < end && static_cast<int64_t>(result.hits.size() / kHitStride) < job.wanted;) {
    const char* hit = Find(job, at, end);
    if (hit == nullptr || hit > text_end) break;
    const char* line_start = LineStart(data, hit);
    const char* line_end = static_cast<const char*>(memchr(hit, '\n', end - hit));
    if (line_end == nullptr) line_end = end;
    line += CountLineFeeds(counted, line_start);
    counted = line_start;
    const int32_t hit_values[kHitStride] = {static_cast<int32_t>(index), line + 1, static_cast<int32_t>(hit - line_start),
                                            static_cast<int32_t>(result.lines.size()), static_cast<int32_t>(line_end - line_start),
                                            AllAscii(line_start, line_end) ? 1 : 0};
    try {
      result.hits.insert(result.hits.end(), hit_values, hit_values + kHitStride);
      result.lines.append(line_start, line_end - line_start);
    } catch (const std::bad_alloc&) {
      result.hits.clear();
      result.lines.clear();
      result.length = -1;
      return;
    }
    at = line_end + 1;
  }
  job.found.fetch_add(static_cast<int64_t>(result.hits.size() / kHitStride));
  if (job.line_bytes.fetch_add(static_cast<int64_t>(result.lines.size())) + static_cast<int64_t>(result.lines.size()) > job.max_line_bytes) {
    job.stopped.store(3);
  }
}

void Execute(napi_env, void* data) {
  Job& job = *static_cast<Job*>(data);
  std::atomic<size_t> next{0};
  // A thread that cannot get its buffer takes no file (the caller scans files left unread itself).
  auto work = [&job, &next]() noexcept {
    std::vector<char> buffer;
    try {
      buffer.resize(1 << 20);
    } catch (const std::bad_alloc&) {
      return;
    }
    for (;;) {
      if (job.cancelled->load()) {
        job.stopped.store(2);
        return;
      }
      if (job.found.load() >= job.wanted || job.stopped.load() == 3) return;
      if (NowMs() > job.deadline_ms) {
        job.stopped.store(1);
        return;
      }
      const size_t index = next.fetch_add(1);
      if (index >= job.paths.size()) return;
      ScanFile(job, index, buffer);
    }
  };
  RunOnThreads(job.threads, work);
}

napi_value Int32Values(napi_env env, const std::vector<int32_t>& values) {
  void* data = nullptr;
  napi_value buffer, array;
  napi_create_arraybuffer(env, values.size() * sizeof(int32_t), &data, &buffer);
  if (!values.empty()) memcpy(data, values.data(), values.size() * sizeof(int32_t));
  napi_create_typedarray(env, napi_int32_array, values.size(), buffer, 0, &array);
  return array;
}

void Complete(napi_env env, napi_status status, void* data) {
  std::unique_ptr<Job> job(static_cast<Job*>(data));
  if (status != napi_ok) {
    napi_value message, error;
    napi_create_string_utf8(env, "the native scan did not run", NAPI_AUTO_LENGTH, &message);
    napi_create_error(env, nullptr, message, &error);
    napi_reject_deferred(env, job->deferred, error);
    napi_delete_async_work(env, job->work);
    return;
  }
  std::vector<int32_t> files;
  std::vector<int32_t> hits;
  size_t total_bytes = 0;
  files.reserve(job->results.size() * 2);
  for (const FileResult& result : job->results) {
    files.push_back(result.length);
    files.push_back(result.binary);
    total_bytes += result.lines.size();
  }
  void* bytes_data = nullptr;
  napi_value bytes;
  napi_create_arraybuffer(env, total_bytes, &bytes_data, &bytes);
  size_t at = 0;
  for (FileResult& result : job->results) {
    for (size_t i = 0; i < result.hits.size(); i += kHitStride) {
      result.hits[i + 3] += static_cast<int32_t>(at);
    }
    hits.insert(hits.end(), result.hits.begin(), result.hits.end());
    if (!result.lines.empty()) memcpy(static_cast<char*>(bytes_data) + at, result.lines.data(), result.lines.size());
    at += result.lines.size();
  }
  napi_value out, stopped;
  napi_create_object(env, &out);
  napi_set_named_property(env, out, "files", Int32Values(env, files));
  napi_set_named_property(env, out, "hits", Int32Values(env, hits));
  napi_set_named_property(env, out, "bytes", bytes);
  napi_create_int32(env, job->stopped.load(), &stopped);
  napi_set_named_property(env, out, "stopped", stopped);
  napi_resolve_deferred(env, job->deferred, out);
  napi_delete_async_work(env, job->work);
}

napi_value Cancel(napi_env env, napi_callback_info info) {
  void* data = nullptr;
  napi_get_cb_info(env, info, nullptr, nullptr, nullptr, &data);
  static_cast<std::shared_ptr<std::atomic<bool>>*>(data)->get()->store(true);
  return nullptr;
}

void FreeFlag(napi_env, void* data, void*) { delete static_cast<std::shared_ptr<std::atomic<bool>>*>(data); }

// A count from JavaScript, at least `least` (NaN too) and at most INT64_MAX.
int64_t Clamp(double value, int64_t least) {
  if (!(value >= static_cast<double>(least))) return least;
  if (value >= 9.2e18) return INT64_MAX;
  return static_cast<int64_t>(value);
}

}  // namespace

napi_value LiteralScan(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 8) return Throw(env, "scan(paths, needle, ignoreCase, wanted, threads, deadlineMs, sniffBytes, maxLineBytes)");
  auto job = std::make_unique<Job>();
  if (!ReadStrings(env, argv[0], job->paths)) return Throw(env, "paths must be an array of strings");
  const uint32_t count = static_cast<uint32_t>(job->paths.size());
  if (!ReadString(env, argv[1], job->needle) || job->needle.empty()) return Throw(env, "needle must be a non-empty string");
  napi_get_value_bool(env, argv[2], &job->ignore_case);
  if (job->ignore_case) {
    for (char& c : job->needle) {
      if (static_cast<unsigned char>(c) >= 0x80) return Throw(env, "a needle that ignores case must be ASCII");
      c = static_cast<char>(Lower(static_cast<unsigned char>(c)));
    }
  }
  double wanted = 0, deadline = 0, sniff = 0, max_line_bytes = 0;
  int32_t threads = 1;
  napi_get_value_double(env, argv[3], &wanted);
  napi_get_value_int32(env, argv[4], &threads);
  napi_get_value_double(env, argv[5], &deadline);
  napi_get_value_double(env, argv[6], &sniff);
  napi_get_value_double(env, argv[7], &max_line_bytes);
  job->wanted = Clamp(wanted, 1);
  job->threads = threads < 1 ? 1 : threads > 16 ? 16 : threads;
  job->deadline_ms = deadline;
  job->sniff = static_cast<size_t>(Clamp(sniff, 0));
  job->max_line_bytes = Clamp(max_line_bytes, 0);
  job->results.resize(count);
  job->cancelled = std::make_shared<std::atomic<bool>>(false);

  napi_value promise, name, cancel, out;
  napi_create_promise(env, &job->deferred, &promise);
  auto* flag = new std::shared_ptr<std::atomic<bool>>(job->cancelled);
  napi_create_function(env, "cancel", NAPI_AUTO_LENGTH, Cancel, flag, &cancel);
  napi_add_finalizer(env, cancel, flag, FreeFlag, nullptr, nullptr);
  napi_create_string_utf8(env, "rlmkit literal scan", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, nullptr, name, Execute, Complete, job.get(), &job->work);
  napi_queue_async_work(env, job->work);
  job.release();
  napi_create_object(env, &out);
  napi_set_named_property(env, out, "promise", promise);
  napi_set_named_property(env, out, "cancel", cancel);
  return out;
}
