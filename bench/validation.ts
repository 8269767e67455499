/**
 * `npm run bench -- validation`: precision and recall of the deterministic
 * validation detectors over the labelled corpus (test/fixtures/validation/),
 * per hook, with the cases each one gets wrong.
 */
import { formatScores, loadCorpus, scoreCorpus } from "../test/support/validation-corpus.ts";

const cases = loadCorpus();
const scores = await scoreCorpus(cases);
console.log(`${cases.length} cases (${cases.filter((item) => item.violation).length} violations, ${cases.filter((item) => !item.violation).length} look-alikes), ${cases.filter((item) => item.source).length} from real model transcripts`);
console.log(formatScores(scores, cases));
for (const score of scores) for (const miss of score.misses) console.log(`  ${score.hook}: ${miss}`);
