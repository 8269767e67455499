import { findPhrase, negated, type PhraseSet } from "../phrases/index.ts";
import { phrase } from "../phrases/phrase-set.ts";
import { sentences } from "../reply-parts.ts";

type ClaimKind = "promise" | "presented" | "outputClaim" | "answerClaim" | "spawnClaim";

// "The search below lists…": a sentence about code still to come presents nothing.
const FORWARD = phrase(String.raw`\b(?:below|following|next block|unten|folgende[nr]?|ci-dessous|suivante?|a continuación|abajo|siguiente)\b`);

/** The first sentence of `prose` holding a claim of this kind that is not negated. */
export function findClaim(prose: string, kind: ClaimKind): { readonly sentence: string; readonly set: PhraseSet } | undefined {
  for (const sentence of sentences(prose)) {
    const found = findPhrase(sentence, kind);
    if (!found || negated(sentence, found.match, found.set)) continue;
    if (kind === "presented" && FORWARD.test(sentence)) continue;
    return { sentence, set: found.set };
  }
  return undefined;
}

/** Quotes a sentence for a reason, shortened to 160 characters. */
export function quote(sentence: string): string {
  const text = sentence.replace(/\s+/g, " ").trim();
  return `"${text.length > 160 ? text.slice(0, 157) + "..." : text}"`;
}
