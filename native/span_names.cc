// The spans of a file's symbols, as the disk cache keeps them (src/nav/symbol-piece.ts): a count, then
// per symbol its first line, its last line and where its name ends among the names (in UTF-16 units),
// each a 32-bit little-endian number, then the names one after the other in UTF-8. The innermost symbol
// around a line is the one src/nav/enclosing-symbol.ts names: the symbols by first line (the longest
// first among those that start on the same line), swept with a stack of those open at the line, so
// that where spans overlap without nesting, the one that starts last wins.
#include "span_names.h"

#include <errno.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

namespace {

int32_t ReadInt32(const unsigned char* at) {
  return static_cast<int32_t>(static_cast<uint32_t>(at[0]) | (static_cast<uint32_t>(at[1]) << 8) | (static_cast<uint32_t>(at[2]) << 16) |
                              (static_cast<uint32_t>(at[3]) << 24));
}

bool ReadAt(int fd, char* into, size_t length, int64_t at) {
  size_t done = 0;
  while (done < length) {
    ssize_t got = pread(fd, into + done, length - done, static_cast<off_t>(at + static_cast<int64_t>(done)));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    done += static_cast<size_t>(got);
  }
  return true;
}

// The byte offset of each UTF-16 unit offset of the names (size: units + 1; -1 inside a surrogate pair).
// False for bytes that are not well-formed UTF-8, which TextDecoder would read otherwise.
bool UnitsToBytes(const unsigned char* names, size_t bytes, std::vector<int32_t>& offsets) {
  offsets.clear();
  offsets.reserve(bytes + 1);
  size_t at = 0;
  while (at < bytes) {
    const unsigned char lead = names[at];
    size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
    if (length == 0 || at + length > bytes) return false;
    uint32_t code = length == 1 ? lead : length == 2 ? (lead & 0x1f) : length == 3 ? (lead & 0x0f) : (lead & 0x07);
    for (size_t next = 1; next < length; next++) {
      if ((names[at + next] & 0xc0) != 0x80) return false;
      code = (code << 6) | (names[at + next] & 0x3f);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    static const uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kLeast[length] || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return false;
    offsets.push_back(static_cast<int32_t>(at));
    if (length == 4) offsets.push_back(-1);
    at += length;
  }
  offsets.push_back(static_cast<int32_t>(at));
  return true;
}

}  // namespace

bool NameHits(int fd, int64_t at, int32_t length, FileResult& result, std::vector<char>& scratch) {
  if (at < 1 || length < 4) return false;
  const size_t wanted = static_cast<size_t>(length) + 2;
  if (scratch.size() < wanted) scratch.resize(wanted);
  if (!ReadAt(fd, scratch.data(), wanted, at - 1) || scratch[0] != '\n' || scratch[wanted - 1] != '\n') return false;
  const unsigned char* piece = reinterpret_cast<const unsigned char*>(scratch.data() + 1);
  const uint32_t count = static_cast<uint32_t>(ReadInt32(piece));
  const uint64_t numbers_end = 4 + static_cast<uint64_t>(count) * 12;
  if (numbers_end > static_cast<uint64_t>(length)) return false;
  const unsigned char* names = piece + numbers_end;
  const size_t names_bytes = static_cast<size_t>(length) - static_cast<size_t>(numbers_end);
  std::vector<int32_t> numbers(static_cast<size_t>(count) * 3);
  for (size_t index = 0; index < numbers.size(); index++) numbers[index] = ReadInt32(piece + 4 + index * 4);
  std::vector<int32_t> offsets;
  if (count == 0 ? names_bytes != 0 : !UnitsToBytes(names, names_bytes, offsets)) return false;
  // Each name ends where the one before does or later, the last where the names end, never inside a character.
  int32_t previous = 0;
  for (uint32_t symbol = 0; symbol < count; symbol++) {
    const int32_t end = numbers[symbol * 3 + 2];
    if (end < previous || static_cast<size_t>(end) >= offsets.size() || offsets[end] < 0) return false;
    previous = end;
  }
  if (count > 0 && static_cast<size_t>(previous) != offsets.size() - 1) return false;
  // The symbols by first line, the longest first among those that start on one line; ties keep their order.
  std::vector<uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&numbers](uint32_t a, uint32_t b) {
    return numbers[a * 3] != numbers[b * 3] ? numbers[a * 3] < numbers[b * 3] : numbers[a * 3 + 1] > numbers[b * 3 + 1];
  });
  std::vector<uint32_t> open;
  size_t next = 0;
  int32_t last_line = 0;
  int64_t named = -1;
  int32_t name_at = 0, name_length = 0, name_kind = kNoSymbol;
  for (size_t hit = 0; hit < result.hits.size(); hit += kHitStride) {
    const int32_t line = result.hits[hit + 1];
    // Lines come in order; one that does not starts the sweep again.
    if (line < last_line) {
      next = 0;
      open.clear();
    }
    last_line = line;
    while (next < order.size() && numbers[order[next] * 3] <= line) open.push_back(order[next++]);
    while (!open.empty() && numbers[open.back() * 3 + 1] < line) open.pop_back();
    const int64_t innermost = open.empty() ? int64_t{-1} : static_cast<int64_t>(open.back());
    if (innermost != named) {
      named = innermost;
      if (innermost < 0) {
        name_kind = kNoSymbol;
        name_at = name_length = 0;
      } else {
        const int32_t from = offsets[innermost == 0 ? 0 : numbers[(innermost - 1) * 3 + 2]];
        const int32_t to = offsets[numbers[innermost * 3 + 2]];
        name_at = static_cast<int32_t>(result.names.size());
        name_length = to - from;
        const char* bytes = reinterpret_cast<const char*>(names) + from;
        result.names.append(bytes, static_cast<size_t>(name_length));
        name_kind = std::all_of(bytes, bytes + name_length, [](char c) { return static_cast<unsigned char>(c) < 0x80; }) ? kAsciiName : kUtf8Name;
      }
    }
    result.hits[hit + kHitName] = name_at;
    result.hits[hit + kHitName + 1] = name_length;
    result.hits[hit + kHitName + 2] = name_kind;
  }
  return true;
}
