/**
 * A pattern matching any of some literal words: the readers' mention tests
 * are built from the same word lists as the `git grep` needles that pick the
 * files they read (`filesMentioning.ts`), so a word added to one is in both.
 */
import { escapeRegExp } from '../escapeRegExp';

/** Matches text holding any of `words` (`flags`: `i` to ignore letter case). */
export function anyOfWords(words: readonly string[], flags = ''): RegExp {
  return new RegExp(words.map(escapeRegExp).join('|'), flags);
}
