import { ENGLISH } from "./english.ts";
import { FRENCH } from "./french.ts";
import { GERMAN } from "./german.ts";
import type { PhraseSet } from "./phrase-set.ts";
import { SPANISH } from "./spanish.ts";

export type { PhraseSet } from "./phrase-set.ts";

/** The languages the deterministic detectors understand: English, German, French and Spanish. */
export const PHRASE_SETS: readonly PhraseSet[] = [ENGLISH, GERMAN, FRENCH, SPANISH];

type PhraseKind = Exclude<keyof PhraseSet, "language" | "negation">;

/** The first sentence-level match of a kind of phrase, in any language, with the language's negation test. */
export function findPhrase(sentence: string, kind: PhraseKind): { readonly match: RegExpExecArray; readonly set: PhraseSet } | undefined {
  for (const set of PHRASE_SETS) {
    for (const pattern of set[kind]) {
      const match = pattern.exec(sentence);
      if (match) return { match, set };
    }
  }
  return undefined;
}

/** True when the words just before a match negate it ("I have not checked", "ich habe noch nicht geprüft"). */
export function negated(sentence: string, match: RegExpExecArray, set: PhraseSet): boolean {
  const before = sentence.slice(Math.max(0, match.index - 24), match.index);
  return set.negation.test(before) || set.negation.test(match[0]);
}
