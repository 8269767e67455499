// See literal_finder.h.
#include "literal_finder.h"

#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>

namespace {
// How many bytes of failed comparisons per byte passed the finder allows before it leaves the rest to memmem.
constexpr size_t kSlack = 4;
}  // namespace
#endif

LiteralFinder::LiteralFinder(std::string needle) : needle_(std::move(needle)) {
  for (size_t at = 1; at < needle_.size(); at++) {
    if (Rank(needle_[at]) < Rank(needle_[first_])) first_ = at;
  }
  second_ = first_;
  for (size_t at = 0; at < needle_.size(); at++) {
    if (at != first_ && (second_ == first_ || Rank(needle_[at]) < Rank(needle_[second_]))) second_ = at;
  }
}

const char* LiteralFinder::Find(const char* data, size_t length) const {
  const size_t size = needle_.size();
  if (size > length) return nullptr;
  const char* wanted = needle_.data();
  if (size == 1) return static_cast<const char*>(memchr(data, wanted[0], length));
#if defined(__SSE2__)
  const size_t last = length - size;  // the last place the needle may start
  const size_t reach = (first_ > second_ ? first_ : second_) + 16;  // the bytes one block of places loads
  const __m128i one = _mm_set1_epi8(wanted[first_]);
  const __m128i two = _mm_set1_epi8(wanted[second_]);
  const char* at_first = data + first_;
  const char* at_second = data + second_;
  size_t at = 0;
  // Bytes compared at places where the needle was not. On text where the two bytes are in place at many places
  // (a periodic text, a long needle), comparing them all would cost the text's length times the needle's: once
  // the comparisons come to more than kSlack times the bytes passed (and the needle), the rest is memmem's, which
  // is linear. Each call then costs at most about kSlack times the bytes it passes plus the needle's length.
  size_t spent = 0;
  bool give_up = false;
  // Each place whose two bytes are in place is compared whole, in order.
  auto check = [&](size_t from, uint32_t mask) -> const char* {
    for (; mask != 0; mask &= mask - 1) {
      const size_t place = from + static_cast<size_t>(__builtin_ctz(mask));
      if (place > last) return nullptr;  // and so are the places after it
      if (memcmp(data + place, wanted, size) == 0) return data + place;
      spent += size;
      if (spent > kSlack * (place + size)) {
        give_up = true;
        return nullptr;
      }
    }
    return nullptr;
  };
  // Thirty-two places at a time, then sixteen, while the loads stay within the bytes.
  for (; at + reach + 16 <= length; at += 32) {
    const __m128i low = _mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at_first + at)), one),
                                      _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at_second + at)), two));
    const __m128i high = _mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at_first + at + 16)), one),
                                       _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at_second + at + 16)), two));
    if (_mm_movemask_epi8(_mm_or_si128(low, high)) == 0) continue;
    const uint32_t mask = static_cast<uint32_t>(_mm_movemask_epi8(low)) | (static_cast<uint32_t>(_mm_movemask_epi8(high)) << 16);
    if (const char* found = check(at, mask)) return found;
    if (give_up) break;
  }
  for (; !give_up && at + reach <= length; at += 16) {
    const __m128i both = _mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at_first + at)), one),
                                       _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at_second + at)), two));
    if (const char* found = check(at, static_cast<uint32_t>(_mm_movemask_epi8(both)))) return found;
    if (give_up) break;
  }
  // The last places (fewer than sixteen plus the needle's length of bytes), or every place from the block given up on.
  if (at > last) return nullptr;
  return static_cast<const char*>(memmem(data + at, length - at, wanted, size));
#else
  return static_cast<const char*>(memmem(data, length, wanted, size));
#endif
}

// How common a byte is in source code, higher for more common: the ranks of src/nav/literal-finder.ts (per 10,000
// characters of Python's standard library); a byte not listed is rarer than every one listed.
int LiteralFinder::Rank(char byte) {
  switch (byte) {
    case ' ': return 2851;
    case 'e': return 634;
    case 't': return 423;
    case 'r': return 362;
    case 's': return 355;
    case 'a': return 330;
    case 'i': return 327;
    case 'n': return 326;
    case 'o': return 309;
    case '\n': return 281;
    case 'l': return 244;
    case '\'': return 195;
    case 'd': return 178;
    case 'c': return 175;
    case ',': return 168;
    case 'f': return 157;
    case 'p': return 155;
    case '_': return 149;
    case 'u': return 141;
    case 'm': return 128;
    case '.': return 110;
    case 'h': return 107;
    case '"': return 98;
    case '(': return 97;
    case ')': return 97;
    case ':': return 85;
    case 'g': return 84;
    case '0': return 74;
    case 'b': return 70;
    case 'y': return 65;
    case '=': return 59;
    case 'x': return 58;
    case 'E': return 50;
    case 'T': return 50;
    case '-': return 50;
    case '#': return 48;
    case 'w': return 41;
    case 'A': return 39;
    case 'v': return 38;
    case 'k': return 37;
    default: return 30;
  }
}
