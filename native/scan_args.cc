// What a scan is given besides its paths (see literal_scan.cc): its needles, where the index keeps each
// file's spans, which paths to read rather than only state, and which file each path must lead to.
#include "scan_args.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "line_bytes.h"
#include "rlmkit_native.h"

namespace {

// True when `value` is a typed array of `type` with `length` elements, its data in `data`.
bool TypedArrayData(napi_env env, napi_value value, napi_typedarray_type type, size_t length, void** data) {
  bool is_typed = false;
  napi_typedarray_type actual;
  size_t elements = 0;
  *data = nullptr;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return false;
  if (napi_get_typedarray_info(env, value, &actual, &elements, data, nullptr, nullptr) != napi_ok || actual != type || elements != length) return false;
  return *data != nullptr || length == 0;
}

// The data of the typed array `name` of `object` (see TypedArrayData); nullptr when it is not one.
void* TypedArray(napi_env env, napi_value object, const char* name, napi_typedarray_type type, size_t length) {
  napi_value value;
  void* data = nullptr;
  return napi_get_named_property(env, object, name, &value) == napi_ok && TypedArrayData(env, value, type, length, &data) ? data : nullptr;
}

// True when `value` is a whole number from 0 to `most`.
bool IsWhole(double value, double most) {
  return value >= 0 && value <= most && value == static_cast<double>(static_cast<int64_t>(value));
}

// True when every needle is a non-empty string without a line feed (a line never holds one: such a needle would drop
// every line), ASCII when ignoring case; lower-cases them then.
bool Needles(std::vector<std::string>& needles, bool ignore_case) {
  for (std::string& needle : needles) {
    if (needle.empty() || needle.find('\n') != std::string::npos) return false;
    if (!ignore_case) continue;
    for (char& c : needle) {
      if (static_cast<unsigned char>(c) >= 0x80) return false;
      c = static_cast<char>(LowerAscii(static_cast<unsigned char>(c)));
    }
  }
  return true;
}

// An array of arrays of strings; false when it is not one.
bool ReadGroups(napi_env env, napi_value value, std::vector<std::vector<std::string>>& out) {
  bool is_array = false;
  uint32_t count = 0;
  if (napi_is_array(env, value, &is_array) != napi_ok || !is_array || napi_get_array_length(env, value, &count) != napi_ok) return false;
  // Grown as each element is read: a sparse array's length is no measure of what it holds.
  out.clear();
  for (uint32_t i = 0; i < count; i++) {
    napi_value item;
    std::vector<std::string> group;
    if (napi_get_element(env, value, i, &item) != napi_ok || !ReadStrings(env, item, group)) return false;
    out.push_back(std::move(group));
  }
  return true;
}

}  // namespace

bool ReadSpans(napi_env env, napi_value spans, Job& job) {
  napi_value fd_value;
  double fd = -1;
  if (napi_get_named_property(env, spans, "fd", &fd_value) != napi_ok || napi_get_value_double(env, fd_value, &fd) != napi_ok || !IsWhole(fd, INT32_MAX)) return false;
  const size_t count = job.paths.size();
  const double* at = static_cast<const double*>(TypedArray(env, spans, "at", napi_float64_array, count));
  const int32_t* length = static_cast<const int32_t*>(TypedArray(env, spans, "length", napi_int32_array, count));
  if ((at == nullptr || length == nullptr) && count > 0) return false;
  job.spans_at.assign(at, at + count);
  job.spans_length.assign(length, length + count);
  // A place that is not a whole number a file can hold is none.
  for (double& place : job.spans_at) {
    if (!(place >= 0 && place <= 9007199254740992.0) || place != static_cast<double>(static_cast<int64_t>(place))) place = -1;
  }
  // A descriptor of the job's own, closed when a process starts (a child spawned while the scan runs gets none);
  // one that cannot be made leaves the hits unnamed, and the caller names them.
  job.spans_fd = fcntl(static_cast<int>(fd), F_DUPFD_CLOEXEC, 0);
  return true;
}

bool ReadIdentity(napi_env env, napi_value value, Job& job) {
  void* data = nullptr;
  if (!TypedArrayData(env, value, napi_float64_array, job.paths.size() * 2, &data)) return false;
  const double* pairs = static_cast<const double*>(data);
  job.identity.assign(pairs, pairs + job.paths.size() * 2);
  return true;
}

bool ReadGrams(napi_env env, napi_value grams, Job& job) {
  const size_t count = job.paths.size();
  napi_value data_value, trigrams_value, fd_value, bytes_value;
  void* data = nullptr;
  void* trigrams = nullptr;
  bool is_typed = false;
  napi_typedarray_type type;
  size_t bytes = 0, trigram_count = 0;
  double fd = -1;
  double file_bytes = -1;
  const bool has_fd = napi_get_named_property(env, grams, "fd", &fd_value) == napi_ok && napi_get_value_double(env, fd_value, &fd) == napi_ok;
  if (has_fd) {
    if (!IsWhole(fd, INT32_MAX) || napi_get_named_property(env, grams, "bytes", &bytes_value) != napi_ok || napi_get_value_double(env, bytes_value, &file_bytes) != napi_ok) return false;
  } else {
    if (napi_get_named_property(env, grams, "data", &data_value) != napi_ok || napi_is_typedarray(env, data_value, &is_typed) != napi_ok || !is_typed) return false;
    if (napi_get_typedarray_info(env, data_value, &type, &bytes, &data, nullptr, nullptr) != napi_ok || type != napi_uint8_array) return false;
  }
  if (napi_get_named_property(env, grams, "trigrams", &trigrams_value) != napi_ok || napi_is_typedarray(env, trigrams_value, &is_typed) != napi_ok || !is_typed) return false;
  if (napi_get_typedarray_info(env, trigrams_value, &type, &trigram_count, &trigrams, nullptr, nullptr) != napi_ok || type != napi_uint32_array) return false;
  const double* at = static_cast<const double*>(TypedArray(env, grams, "at", napi_float64_array, count));
  const int32_t* length = static_cast<const int32_t*>(TypedArray(env, grams, "length", napi_int32_array, count));
  if ((at == nullptr || length == nullptr) && count > 0) return false;
  const uint8_t* from = static_cast<const uint8_t*>(data);
  const uint32_t* wanted = static_cast<const uint32_t*>(trigrams);
  if (has_fd) {
    // A descriptor of the job's own, closed when a process starts; one that cannot be made, or a size no filter file
    // has, leaves every path to read.
    if (!IsWhole(file_bytes, INT32_MAX)) return true;
    job.grams_fd = fcntl(static_cast<int>(fd), F_DUPFD_CLOEXEC, 0);
    job.grams_bytes = static_cast<int64_t>(file_bytes);
  } else {
    // Bytes that cannot be held leave every path to read.
    if (from != nullptr && bytes > 0) job.grams.reset(new (std::nothrow) uint8_t[bytes]);
    if (job.grams != nullptr) {
      memcpy(job.grams.get(), from, bytes);
      job.grams_size = bytes;
    }
  }
  job.trigrams.assign(wanted, wanted + (wanted == nullptr ? 0 : trigram_count));
  job.grams_at.assign(at, at + count);
  job.grams_length.assign(length, length + count);
  return true;
}

void LoadGrams(Job& job) noexcept {
  if (job.grams_fd < 0) return;
  bool loaded = false;
  try {
    const size_t size = static_cast<size_t>(job.grams_bytes);
    job.grams.reset(new uint8_t[size > 0 ? size : 1]);
    size_t done = 0;
    while (done < size) {
      const ssize_t got = pread(job.grams_fd, job.grams.get() + done, size - done, static_cast<off_t>(done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      done += static_cast<size_t>(got);
    }
    loaded = done == size;
    if (loaded) job.grams_size = size;
  } catch (const std::bad_alloc&) {
    loaded = false;
  }
  close(job.grams_fd);
  job.grams_fd = -1;
  if (!loaded) {
    job.grams.reset();
    job.grams_size = 0;
    job.grams_at.clear();
  }
}

bool MayHoldTrigrams(const Job& job, size_t index) {
  if (job.grams_at.empty() || job.trigrams.empty()) return true;
  const double at = job.grams_at[index];
  const int32_t length = job.grams_length[index];
  // A filter's bits are a power of two, from 1,024 up (src/nav/trigram-filter.ts): anything else is no filter.
  if (!(at >= 0 && at <= 9007199254740992.0) || at != static_cast<double>(static_cast<int64_t>(at))) return true;
  if (length < 128 || length > (1 << 28) || (length & (length - 1)) != 0) return true;
  const size_t offset = static_cast<size_t>(at);
  if (job.grams == nullptr || offset > job.grams_size || job.grams_size - offset < static_cast<size_t>(length)) return true;
  int bits_log2 = 3;
  while ((int64_t{1} << bits_log2) < int64_t{length} * 8) bits_log2++;
  const int shift = 32 - bits_log2;
  const uint8_t* filter = job.grams.get() + offset;
  for (uint32_t trigram : job.trigrams) {
    const uint32_t bit = (trigram * 0x9e3779b1u) >> shift;
    if ((filter[bit >> 3] & (1u << (bit & 7))) == 0) return false;
  }
  return true;
}

bool ReadMask(napi_env env, napi_value value, Job& job) {
  void* data = nullptr;
  if (!TypedArrayData(env, value, napi_uint8_array, job.paths.size(), &data)) return false;
  const uint8_t* mask = static_cast<const uint8_t*>(data);
  job.read.assign(mask, mask + job.paths.size());
  // An empty mask would read every path: with no path, there is nothing to state either.
  if (job.read.empty()) job.read.push_back(0);
  return true;
}

const char* ReadNeedles(napi_env env, napi_value needle, napi_value also, napi_value any_of, Job& job) {
  std::string main;
  // A line never holds a line feed: a needle with one would only make the scan step through the lines it spans.
  if (!ReadString(env, needle, main) || main.empty() || main.find('\n') != std::string::npos) return "needle must be a non-empty string without a line feed";
  std::vector<std::string> one{std::move(main)};
  if (!Needles(one, job.ignore_case)) return "a needle that ignores case must be ASCII";
  job.needle = LiteralFinder(std::move(one[0]));
  std::vector<std::string> others;
  if (also != nullptr && !ReadStrings(env, also, others)) return "also must be an array of strings";
  if (!Needles(others, job.ignore_case)) return "also's needles must be non-empty strings without a line feed, ASCII when ignoring case";
  // A needle every kept line must hold is a group of one: the scan tests them first, as given.
  for (std::string& other : others) job.any_of.emplace_back().emplace_back(std::move(other));
  std::vector<std::vector<std::string>> groups;
  if (any_of != nullptr && !ReadGroups(env, any_of, groups)) return "anyOf must be an array of arrays of strings";
  for (std::vector<std::string>& group : groups) {
    // An empty group would drop every line.
    if (group.empty() || !Needles(group, job.ignore_case)) return "anyOf's groups must be non-empty, of non-empty strings without a line feed, ASCII when ignoring case";
    std::vector<LiteralFinder>& finders = job.any_of.emplace_back();
    for (std::string& other : group) finders.emplace_back(std::move(other));
  }
  return nullptr;
}
