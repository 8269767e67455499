// Helpers over one file's bytes for a scan (see scan_files.cc): ASCII case folding, lines and line feeds.
#ifndef RLMKIT_LINE_BYTES_H_
#define RLMKIT_LINE_BYTES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

inline unsigned char LowerAscii(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

// Copies `length` bytes with ASCII letters lower-cased, into `folded` (grown as needed): a needle that
// ignores case (lower-cased, ASCII) is then found in the copy (literal_finder.h), at the same offsets, in
// linear time whatever the text (comparing at each place its first letter occurs costs up to the
// needle's length per byte on a text of one repeated letter).
inline const char* FoldAscii(const char* data, size_t length, std::vector<char>& folded) {
  if (folded.size() < length) folded.resize(length);
  char* out = folded.data();
  for (size_t at = 0; at < length; at++) out[at] = static_cast<char>(LowerAscii(static_cast<unsigned char>(data[at])));
  return out;
}

// A plain loop over bytes, which the compiler vectorises.
inline bool AllAscii(const char* from, const char* to) {
  unsigned char seen = 0;
  for (const char* at = from; at < to; at++) seen |= static_cast<unsigned char>(*at);
  return seen < 0x80;
}

// The line feeds from `from` to `to`. With SSE2, sixteen bytes at a time: each byte of a sum counts its
// lane's line feeds for up to 255 blocks, then the sixteen sums are added (psadbw).
inline int32_t CountLineFeeds(const char* from, const char* to) {
  int32_t count = 0;
#if defined(__SSE2__)
  const __m128i feed = _mm_set1_epi8('\n');
  const __m128i zero = _mm_setzero_si128();
  while (to - from >= 16) {
    const char* stop = from + std::min<ptrdiff_t>((to - from) / 16, 255) * 16;
    __m128i sums = zero;
    for (; from < stop; from += 16) sums = _mm_sub_epi8(sums, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from)), feed));
    const __m128i total = _mm_sad_epu8(sums, zero);
    count += _mm_cvtsi128_si32(total) + _mm_extract_epi16(total, 4);
  }
#endif
  for (const char* at = from; at < to; at++) count += *at == '\n';
  return count;
}

// The start of the line that holds `at`, `data` being the start of a line at or before it.
inline const char* LineStart(const char* data, const char* at) {
#if defined(__GLIBC__)
  const void* feed = memrchr(data, '\n', static_cast<size_t>(at - data));
  return feed == nullptr ? data : static_cast<const char*>(feed) + 1;
#else
  while (at > data && at[-1] != '\n') at--;
  return at;
#endif
}

#endif  // RLMKIT_LINE_BYTES_H_
