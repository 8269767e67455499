// Helpers over one file's bytes for a scan (see scan_files.cc): ASCII case folding, lines and line feeds.
#ifndef RLMKIT_LINE_BYTES_H_
#define RLMKIT_LINE_BYTES_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

inline unsigned char LowerAscii(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

// Copies `length` bytes with ASCII letters lower-cased, into `folded` (grown as needed): a needle that
// ignores case (lower-cased, ASCII) is then found with memmem in the copy, at the same offsets, in
// linear time whatever the text (comparing at each place its first letter occurs costs up to the
// needle's length per byte on a text of one repeated letter).
inline const char* FoldAscii(const char* data, size_t length, std::vector<char>& folded) {
  if (folded.size() < length) folded.resize(length);
  char* out = folded.data();
  for (size_t at = 0; at < length; at++) out[at] = static_cast<char>(LowerAscii(static_cast<unsigned char>(data[at])));
  return out;
}

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

#endif  // RLMKIT_LINE_BYTES_H_
