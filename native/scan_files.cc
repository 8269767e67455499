// The work of a scan's threads (see literal_scan.cc): each takes the next file, reads it whole if it
// is a regular file, and collects the lines that hold the needle.
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <utility>

#include "line_bytes.h"
#include "scan_args.h"
#include "scan_job.h"
#include "span_names.h"
#include "stat_values.h"

namespace {

double NowMs() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<double>(now.tv_sec) * 1000.0 + static_cast<double>(now.tv_nsec) / 1e6;
}

// Reads the whole file into `buffer`; its length, or -1. Only a regular file is read: a path
// replaced by a FIFO since the walk must not block a thread (O_NONBLOCK opens it at once). Its
// stats go to `stat` (stat_values.h). A symlink is opened through only after an open that does not
// follow one failed on it, and `via_link` says so: the caller then compares what it leads to with
// the file the walk listed, since a path can become a link to a refused file after the walk.
// With `expected` (device and inode number, NaN when not known), a file that is another is not read: -4.
int64_t ReadWhole(const std::string& path, std::vector<char>& buffer, double* stat, int32_t* via_link, const double* expected) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0 && errno == ELOOP) {
    fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    *via_link = 1;
  }
  if (fd < 0) return -1;
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    return -1;
  }
  StatValues(info, stat);
  if (expected != nullptr && !std::isnan(expected[0]) && (expected[0] != stat[7] || expected[1] != stat[8])) {
    close(fd);
    return -4;
  }
  size_t length = 0;
  for (;;) {
    if (buffer.size() - length < 65536) {
      try {
        buffer.resize(buffer.size() * 2);
      } catch (...) {
        close(fd);
        throw;
      }
    }
    ssize_t got = read(fd, buffer.data() + length, buffer.size() - length);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 || length + static_cast<size_t>(got) > INT32_MAX) {
      close(fd);
      return -1;
    }
    if (got == 0) break;
    length += static_cast<size_t>(got);
  }
  close(fd);
  return static_cast<int64_t>(length);
}

// The bytes of hits and their lines above which a file's result takes its thread's buffers rather than a copy of them.
constexpr size_t kMovedAbove = 1 << 20;

// A thread's buffers: the file read, its bytes with letters lower-cased (for a needle that ignores case), a file's
// spans, and its hits and lines as they are found (then copied into its result, or moved there when large: one
// allocation per file, not one each time they grow).
struct Buffers {
  std::vector<char> read;
  std::vector<char> folded;
  std::vector<char> spans;
  std::vector<int32_t> hits;
  std::string lines;
};

void ScanFile(Job& job, size_t index, Buffers& buffers) {
  std::vector<char>& buffer = buffers.read;
  FileResult& result = job.results[index];
  int64_t length = -1;
  try {
    length = ReadWhole(job.paths[index], buffer, result.stat, &result.via_link, job.identity.empty() ? nullptr : &job.identity[index * 2]);
  } catch (const std::bad_alloc&) {
    // A file too large to hold is one that cannot be read.
  }
  if (length < 0) {
    result.length = length == -4 ? -4 : -1;
    return;
  }
  result.length = static_cast<int32_t>(length);
  const char* data = buffer.data();
  const char* end = data + length;
  if (memchr(data, 0, std::min(job.sniff, static_cast<size_t>(length))) != nullptr) {
    result.binary = 1;
    return;
  }
  int32_t line = 0;
  const char* counted = data;
  const LiteralFinder& needle = job.needle;
  std::vector<int32_t>& hits = buffers.hits;
  std::string& lines = buffers.lines;
  hits.clear();
  lines.clear();
  try {
    // Ignoring case, the needle (lower-cased) is found in a lower-cased copy, at the same offsets.
    const char* searched = job.ignore_case ? FoldAscii(data, static_cast<size_t>(length), buffers.folded) : data;
    for (const char* at = data; at < end && static_cast<int64_t>(hits.size() / kHitStride) < job.wanted;) {
      const char* found = needle.Find(searched + (at - data), static_cast<size_t>(end - at));
      if (found == nullptr) break;
      const char* hit = data + (found - searched);
      const char* line_start = LineStart(counted, hit);
      const char* line_end = static_cast<const char*>(memchr(hit, '\n', end - hit));
      if (line_end == nullptr) line_end = end;
      // A line without one needle of each other group (every other needle of a pattern, one of each of its groups of
      // alternatives) cannot match: it is not kept (nor counted yet).
      bool holds_all = true;
      const char* searched_line = searched + (line_start - data);
      const size_t line_length = static_cast<size_t>(line_end - line_start);
      for (size_t group = 0; holds_all && group < job.any_of.size(); group++) {
        holds_all = false;
        for (const LiteralFinder& other : job.any_of[group]) {
          if (other.Find(searched_line, line_length) != nullptr) {
            holds_all = true;
            break;
          }
        }
      }
      if (!holds_all) {
        if (line_end == end) break;
        at = line_end + 1;
        continue;
      }
      line += CountLineFeeds(counted, line_start);
      counted = line_start;
      const int32_t values[kHitStride] = {static_cast<int32_t>(index), line + 1, static_cast<int32_t>(hit - line_start),
                                          static_cast<int32_t>(lines.size()), static_cast<int32_t>(line_end - line_start),
                                          AllAscii(line_start, line_end) ? 1 : 0, 0, 0, kUnnamed};
      hits.insert(hits.end(), values, values + kHitStride);
      // Each line is followed by a line feed, so a pattern can run over all the lines at once.
      lines.append(line_start, line_end - line_start);
      lines.push_back('\n');
      if (line_end == end) break;
      at = line_end + 1;
    }
    // Copied when small (the buffers stay, grown, for the next file); a file with many hits takes the buffers
    // themselves, so its hits and lines are never held twice and the thread keeps no large buffer for the rest of the scan.
    if (lines.size() + hits.size() * sizeof(int32_t) > kMovedAbove) {
      result.hits = std::move(hits);
      result.lines = std::move(lines);
    } else {
      result.hits.assign(hits.begin(), hits.end());
      result.lines.assign(lines);
    }
    // Each hit named by its symbol, when the index gave this file's spans (left unnamed when they are not well formed).
    if (job.spans_fd >= 0 && job.spans_at[index] >= 0 && !result.hits.empty()) {
      if (!NameHits(job.spans_fd, static_cast<int64_t>(job.spans_at[index]), job.spans_length[index], result, buffers.spans)) {
        for (size_t at = 0; at < result.hits.size(); at += kHitStride) result.hits[at + kHitName + 2] = kUnnamed;
        result.names.clear();
      }
    }
  } catch (const std::bad_alloc&) {
    result.hits.clear();
    result.lines.clear();
    result.names.clear();
    result.length = -1;
    return;
  }
  job.found.fetch_add(static_cast<int64_t>(result.hits.size() / kHitStride));
  // What the answer keeps of this file: its lines and names, and each hit's numbers.
  const int64_t kept = static_cast<int64_t>(result.lines.size() + result.names.size() + result.hits.size() * sizeof(int32_t));
  if (job.line_bytes.fetch_add(kept) + kept > job.max_line_bytes) job.Stop(kTooManyLines);
}

}  // namespace

void Work(Job& job, std::atomic<size_t>& next) noexcept {
  Buffers buffers;
  try {
    buffers.read.resize(1 << 20);
  } catch (const std::bad_alloc&) {
    return;  // This thread takes no file (the caller scans files left unread itself).
  }
  for (;;) {
    // Enough hits: no more files are read, and when every path is to be stated, the rest only are. The answer is
    // then complete: a cancel or the deadline ends the stating, not the scan (the walk states what is left).
    const bool enough = job.found.load() >= job.wanted;
    if (job.shared->cancelled.load()) {
      if (!enough) job.Stop(kCancelled);
      return;
    }
    if (job.stopped.load() != kDone) return;
    if (enough && job.read.empty()) return;
    if (NowMs() > job.deadline_ms) {
      if (!enough) job.Stop(kDeadline);
      return;
    }
    const size_t index = next.fetch_add(1);
    if (index >= job.paths.size()) return;
    // A path to read whose filter says it cannot hold the trigrams is one only to state.
    const bool marked = job.read.empty() || job.read[index] != 0;
    const bool holds = marked && MayHoldTrigrams(job, index);
    if (holds && (job.read.empty() || !enough)) {
      ScanFile(job, index, buffers);
      continue;
    }
    FileResult& result = job.results[index];
    if (!holds) result.length = -3;
    if (job.read.empty()) continue;
    struct stat info;
    if (lstat(job.paths[index].c_str(), &info) == 0) StatValues(info, result.stat);
  }
}
