// How file systems spell `.git`: a path names git's own folder in more ways than one, and the read rule
// refuses every one of them, as git itself does.

/**
 * True when the last segment of `relative` (after `slash`) names `.git` as some file system reads it, as
 * git itself refuses such names (`is_hfs_dotgit`, `is_ntfs_dotgit`): in any case (case-insensitive file
 * systems, the default on macOS and Windows), with characters HFS+ ignores in names anywhere in it
 * (`.g\u200Cit`), with the dots and spaces Windows drops at its end or an NTFS stream after a colon
 * (`.git.`, `.git::$INDEX_ALLOCATION`), or as Windows' short name `git~1`. A walk lists entries by their
 * own names; a path someone asks for may be written any of these ways. Nothing is made for a name
 * that cannot be one: a walk asks for every entry.
 */
export function namesGit(relative: string, slash: number): boolean {
  const first = relative.charCodeAt(slash + 1);
  if (first !== 46 && (first | 32) !== 103 && !ignoredByHfs(first)) return false;
  return aliasOf(relative, slash + 1, ".git") || aliasOf(relative, slash + 1, "git~1");
}

// True when text[start..] is `name` (lower case, ASCII) in any case, with characters HFS+ ignores anywhere and,
// at its end, only dots, spaces and such characters, or a colon and anything after it.
function aliasOf(text: string, start: number, name: string): boolean {
  let matched = 0;
  let at = start;
  for (; at < text.length && matched < name.length; at++) {
    const code = text.charCodeAt(at);
    if (ignoredByHfs(code)) continue;
    if ((code >= 65 && code <= 90 ? code + 32 : code) !== name.charCodeAt(matched)) return false;
    matched++;
  }
  if (matched < name.length) return false;
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 58) return true;
    if (code !== 46 && code !== 32 && !ignoredByHfs(code)) return false;
  }
  return true;
}

// The code points HFS+ leaves out when it compares names (git's `is_hfs_dotgit` skips the same).
function ignoredByHfs(code: number): boolean {
  return code >= 0x200c && ((code <= 0x200f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x206a && code <= 0x206f) || code === 0xfeff);
}
