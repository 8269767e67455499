#include "rlmkit_native.h"

#include <dlfcn.h>

#include <thread>

napi_value Throw(napi_env env, const char* message) {
  napi_throw_type_error(env, nullptr, message);
  return nullptr;
}

bool ReadString(napi_env env, napi_value value, std::string& out) {
  size_t length = 0;
  if (napi_get_value_string_utf8(env, value, nullptr, 0, &length) != napi_ok) return false;
  out.resize(length);
  return napi_get_value_string_utf8(env, value, out.data(), length + 1, &length) == napi_ok;
}

bool ReadStrings(napi_env env, napi_value value, std::vector<std::string>& out) {
  bool is_array = false;
  uint32_t count = 0;
  if (napi_is_array(env, value, &is_array) != napi_ok || !is_array) return false;
  if (napi_get_array_length(env, value, &count) != napi_ok) return false;
  // Grown as each element is read: a sparse array's length is no measure of what it holds.
  out.clear();
  for (uint32_t i = 0; i < count; i++) {
    napi_value item;
    std::string text;
    if (napi_get_element(env, value, i, &item) != napi_ok || !ReadString(env, item, text)) return false;
    out.push_back(std::move(text));
  }
  return true;
}

void RunOnThreads(int threads, const std::function<void()>& work) noexcept {
  threads = threads < 1 ? 1 : threads > kMaxThreads ? kMaxThreads : threads;
  std::vector<std::thread> helpers;
  try {
    helpers.reserve(threads - 1);
    for (int t = 1; t < threads; t++) helpers.emplace_back(work);
  } catch (...) {
    // Fewer threads than asked for (none could start, or no memory for one): those that started share the work.
  }
  work();
  for (std::thread& helper : helpers) helper.join();
}

// Keeps this library loaded for the life of the process: Node unloads a worker thread's addons when
// the worker ends, and a scan's threads may still be running this library's code then (they stop at
// the next file). An extra reference that is never dropped (and RTLD_NODELETE) keeps it mapped.
void PinLibrary() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&PinLibrary), &info) != 0 && info.dli_fname != nullptr) {
    dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  }
}

NAPI_MODULE_INIT() {
  PinLibrary();
  napi_value scan, stat;
  napi_create_function(env, "scan", NAPI_AUTO_LENGTH, LiteralScan, nullptr, &scan);
  napi_set_named_property(env, exports, "scan", scan);
  napi_create_function(env, "stat", NAPI_AUTO_LENGTH, StatFiles, nullptr, &stat);
  napi_set_named_property(env, exports, "stat", stat);
  // What src/nav/native-addon.ts checks before using the addon: a build older than its JavaScript is not used.
  napi_value version;
  napi_create_int32(env, kAddonVersion, &version);
  napi_set_named_property(env, exports, "version", version);
  return exports;
}
