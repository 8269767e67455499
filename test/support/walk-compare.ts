/**
 * Prints, as one JSON line, whether a walk that hands `folders` to a worker thread lists
 * what a walk on one thread lists, with both lists. Run as another user by
 * parallel-walk.test.ts, where file permissions apply.
 *
 * Usage: node test/support/walk-compare.ts ROOT FOLDER...
 */
import { ReadRule } from "../../src/access/read-rule.ts";
import { walkRepository } from "../../src/nav/repo-walk.ts";

const [root, ...folders] = process.argv.slice(2);
const single = walkRepository(root!, new ReadRule(root!));
const shared = walkRepository(root!, new ReadRule(root!), folders);
console.log(JSON.stringify({ same: JSON.stringify(single) === JSON.stringify(shared), single: single.files.map((file) => file.path), shared: shared.files.map((file) => file.path) }));
