// rlmkit's native addon: work a first search does on many files, on threads of its own (Node's
// worker threads take tens of milliseconds to start; these start in microseconds). Built by
// `npm install` when the machine has a C++ compiler (scripts/build-native.mjs); without it,
// src/nav/native-addon.ts finds none and the same work runs in JavaScript.
#ifndef RLMKIT_NATIVE_H_
#define RLMKIT_NATIVE_H_

#include <node_api.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

// scan(...): see literal_scan.cc (the N-API side) and scan_files.cc (the threads' work).
napi_value LiteralScan(napi_env env, napi_callback_info info);
// stat(...): see stat_files.cc.
napi_value StatFiles(napi_env env, napi_callback_info info);

// Throws a TypeError; returns nullptr for the caller to return.
napi_value Throw(napi_env env, const char* message);
// A JavaScript string as UTF-8; false when it is not a string.
bool ReadString(napi_env env, napi_value value, std::string& out);
// An array of strings; false when it is not one.
bool ReadStrings(napi_env env, napi_value value, std::vector<std::string>& out);
// Changes whenever an entry point's arguments or answers change (src/nav/native-addon.ts's ADDON_VERSION
// must match): 2 since stat answers each entry's kind and can lstat; 3 since scan takes other needles a line must hold;
// 4 since scan answers each file's count of hits; 5 since each line it answers is followed by a line feed;
// 6 since scan names each hit's symbol from the index's spans; 7 since scan can state every path and read some;
// 8 since scan says which paths it read through a symlink; 9 since stats end with the device and inode number and
// scan takes the identity of the file each path must lead to; 10 since scan tests the index's trigram filters itself;
// 11 since scan takes groups of needles a kept line must hold one of each (anyOf).
constexpr int32_t kAddonVersion = 11;
// The most threads RunOnThreads starts for one call.
constexpr int kMaxThreads = 16;

// Runs `work` on `threads` threads (1 to kMaxThreads), the calling one among them, and waits for all of
// them (fewer when a thread cannot start). `work` takes its items itself, from a shared counter.
void RunOnThreads(int threads, const std::function<void()>& work) noexcept;

#endif  // RLMKIT_NATIVE_H_
