// Finding a needle in a file's bytes (see scan_files.cc and literal_finder.cc). glibc's memmem sets up a
// table at every call and then goes about a byte at a time; a scan calls it once per hit, and a common
// literal (`def `, `self.`) has tens of thousands of them. This finder looks for two of the needle's bytes,
// each chosen as rare in source code, at sixteen places at once (SSE2), and compares the whole needle only
// where both are in place: the approach of the memchr crate's "packed pair" search (which ripgrep uses)
// and of Wojciech Muła's SIMD-friendly substring search. Where that compares too much (a periodic text, a
// long needle), it leaves the rest to memmem, so a search stays linear in the text. Without SSE2 it is memmem.
#ifndef RLMKIT_LITERAL_FINDER_H_
#define RLMKIT_LITERAL_FINDER_H_

#include <cstddef>
#include <string>

class LiteralFinder {
 public:
  LiteralFinder() = default;

  // Chooses the needle's rarest byte, and the rarest at another place (the same place for a needle of one byte).
  explicit LiteralFinder(std::string needle);

  const std::string& needle() const { return needle_; }

  // The first place in `length` bytes from `data` where the needle starts, or nullptr. The needle is not empty.
  const char* Find(const char* data, size_t length) const;

 private:
  // How common a byte is in source code, higher for more common.
  static int Rank(char byte);

  std::string needle_;
  size_t first_ = 0;
  size_t second_ = 0;
};

#endif  // RLMKIT_LITERAL_FINDER_H_
