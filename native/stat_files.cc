// stat(paths, threads, noFollow): the `stat` (or with noFollow, `lstat`) of many files at once, on
// threads of its own, for a walk of the repository (Node's fs.statSync costs several times the system
// call). Returns a Float64Array of STRIDE values per path: 1 when the call succeeded (else 0 and the
// rest 0), the size, the modification and status-change times as seconds and nanoseconds, which the
// caller turns into milliseconds as Node does (so the figures are those of fs.statSync, bit for bit),
// and the kind of entry: 1 a regular file, 2 a directory, 3 a symlink, 4 anything else.
#include "rlmkit_native.h"
#include "stat_values.h"

#include <sys/stat.h>

#include <atomic>
#include <cstring>

namespace {

void StatOne(const std::string& path, bool follow, double* out) noexcept {
  struct stat info;
  if ((follow ? stat(path.c_str(), &info) : lstat(path.c_str(), &info)) == 0) StatValues(info, out);
}

}  // namespace

napi_value StatFiles(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  std::vector<std::string> paths;
  try {
    if (argc < 2 || !ReadStrings(env, argv[0], paths)) return Throw(env, "stat(paths, threads, noFollow): paths must be an array of strings");
  } catch (const std::bad_alloc&) {
    return Throw(env, "stat(paths, threads, noFollow): not enough memory for the paths");
  }
  int32_t threads = 1;
  napi_get_value_int32(env, argv[1], &threads);
  bool noFollow = false;
  if (argc >= 3) napi_get_value_bool(env, argv[2], &noFollow);
  const bool follow = !noFollow;
  void* data = nullptr;
  napi_value buffer, array;
  if (napi_create_arraybuffer(env, paths.size() * kStatStride * sizeof(double), &data, &buffer) != napi_ok) return nullptr;
  double* out = static_cast<double*>(data);
  if (!paths.empty()) memset(out, 0, paths.size() * kStatStride * sizeof(double));
  std::atomic<size_t> next{0};
  // StatOne throws nothing, and RunOnThreads catches what starting its threads throws.
  RunOnThreads(threads, [&paths, &next, follow, out]() {
    for (size_t i; (i = next.fetch_add(1)) < paths.size();) StatOne(paths[i], follow, out + i * kStatStride);
  });
  napi_create_typedarray(env, napi_float64_array, paths.size() * kStatStride, buffer, 0, &array);
  return array;
}
