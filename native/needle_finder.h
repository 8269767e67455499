// Finding a needle in one file's bytes, and the line around a hit (see literal_scan.cc).
#ifndef RLMKIT_NEEDLE_FINDER_H_
#define RLMKIT_NEEDLE_FINDER_H_

#include <cstdint>
#include <cstring>
#include <string>

inline unsigned char LowerAscii(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

// Finds the needle in one text, from one position to the next: `memmem`, or, ignoring case (an ASCII
// needle, lower-cased), the next place where the needle's first letter occurs in either case. Each
// case's next position is kept until the search passes it, so a text where one case never occurs is
// not searched again for it at every step: the work over a whole text is linear.
class NeedleFinder {
 public:
  NeedleFinder(const std::string& needle, bool ignore_case, const char* end)
      : needle_(needle), ignore_case_(ignore_case), end_(end) {
    const unsigned char first = static_cast<unsigned char>(needle.empty() ? 0 : needle[0]);
    lower_ = first;
    upper_ = first >= 'a' && first <= 'z' ? first - 32 : first;
  }

  // The next occurrence at or after `from`, or nullptr.
  const char* Next(const char* from) {
    const size_t n = needle_.size();
    if (n == 0 || from > end_ || static_cast<size_t>(end_ - from) < n) return nullptr;
    if (!ignore_case_) return static_cast<const char*>(memmem(from, end_ - from, needle_.data(), n));
    const char* last = end_ - n;
    for (const char* at = from; at <= last;) {
      const char* candidate = NextFirst(at, last);
      if (candidate == nullptr) return nullptr;
      size_t i = 1;
      while (i < n && LowerAscii(static_cast<unsigned char>(candidate[i])) == static_cast<unsigned char>(needle_[i])) i++;
      if (i == n) return candidate;
      at = candidate + 1;
    }
    return nullptr;
  }

 private:
  // The next position in [at, last] of the first letter in either case.
  const char* NextFirst(const char* at, const char* last) {
    if (lower_known_ && lower_at_ != nullptr && lower_at_ < at) lower_known_ = false;
    if (!lower_known_) {
      lower_at_ = static_cast<const char*>(memchr(at, lower_, last - at + 1));
      lower_known_ = true;
    }
    if (upper_ == lower_) return lower_at_;
    if (upper_known_ && upper_at_ != nullptr && upper_at_ < at) upper_known_ = false;
    if (!upper_known_) {
      upper_at_ = static_cast<const char*>(memchr(at, upper_, last - at + 1));
      upper_known_ = true;
    }
    if (lower_at_ == nullptr) return upper_at_;
    if (upper_at_ == nullptr) return lower_at_;
    return lower_at_ < upper_at_ ? lower_at_ : upper_at_;
  }

  const std::string& needle_;
  const bool ignore_case_;
  const char* const end_;
  unsigned char lower_ = 0;
  unsigned char upper_ = 0;
  // The next position of each case, once searched for (nullptr: none up to the end).
  bool lower_known_ = false;
  bool upper_known_ = false;
  const char* lower_at_ = nullptr;
  const char* upper_at_ = nullptr;
};

// Written as plain loops over bytes so that the compiler vectorises them.
inline bool AllAscii(const char* from, const char* to) {
  unsigned char seen = 0;
  for (const char* at = from; at < to; at++) seen |= static_cast<unsigned char>(*at);
  return seen < 0x80;
}

inline int32_t CountLineFeeds(const char* from, const char* to) {
  int32_t count = 0;
  for (const char* at = from; at < to; at++) count += *at == '\n';
  return count;
}

// The start of the line that holds `at`.
inline const char* LineStart(const char* data, const char* at) {
  while (at > data && at[-1] != '\n') at--;
  return at;
}

#endif  // RLMKIT_NEEDLE_FINDER_H_
