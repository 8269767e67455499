// One `stat` as the addon answers it (stat_files.cc, and a scan's per-file stats): 1 when it succeeded,
// the size, the modification and status-change times as seconds and nanoseconds (turned into milliseconds
// by the caller as Node does), the kind of entry: 1 a regular file, 2 a directory, 3 a symlink, 4 anything else;
// then the device and the inode number, as Node's numbers give them (what tells one file from another).
#ifndef RLMKIT_STAT_VALUES_H_
#define RLMKIT_STAT_VALUES_H_

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>

constexpr size_t kStatStride = 9;

inline double KindOf(mode_t mode) noexcept {
  if (S_ISREG(mode)) return 1;
  if (S_ISDIR(mode)) return 2;
  if (S_ISLNK(mode)) return 3;
  return 4;
}

inline void StatValues(const struct stat& info, double* out) noexcept {
  out[0] = 1;
  out[1] = static_cast<double>(info.st_size);
#ifdef __APPLE__
  out[2] = static_cast<double>(info.st_mtimespec.tv_sec);
  out[3] = static_cast<double>(info.st_mtimespec.tv_nsec);
  out[4] = static_cast<double>(info.st_ctimespec.tv_sec);
  out[5] = static_cast<double>(info.st_ctimespec.tv_nsec);
#else
  out[2] = static_cast<double>(info.st_mtim.tv_sec);
  out[3] = static_cast<double>(info.st_mtim.tv_nsec);
  out[4] = static_cast<double>(info.st_ctim.tv_sec);
  out[5] = static_cast<double>(info.st_ctim.tv_nsec);
#endif
  out[6] = KindOf(info.st_mode);
  // Through 64 unsigned bits, as libuv gives Node the numbers (macOS's dev_t is signed).
  out[7] = static_cast<double>(static_cast<uint64_t>(info.st_dev));
  out[8] = static_cast<double>(static_cast<uint64_t>(info.st_ino));
}

#endif  // RLMKIT_STAT_VALUES_H_
