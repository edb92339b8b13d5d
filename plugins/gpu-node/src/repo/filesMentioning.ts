import { filterInTurns } from './eventLoopTurns';
import type { ParseCache } from './parseCache';
import { readFiles } from './readFiles';
import type { RepoTree } from './tree';

/**
 * Fewer files with a blob id than this are read and matched here rather than
 * grepped: starting `git grep` costs about as much as reading a few thousand
 * small files. Measured on this machine under load (2 cores, load average
 * 17; a checkout of N files of 350 bytes, median of 7, alternating): 10
 * files grep 368 ms / read 41 ms, 100: 405 / 213, 300: 380 / 385, 1000:
 * 449 / 236, 3000: 956 / 1087. A request's sparse checkout stays below it;
 * a full checkout of a big repository is grepped. The files read here stay
 * in a `ReadOnceRepoTree`, so the reader takes them from there.
 */
export const GREP_FROM_FILES = 1000;

/** The files among `paths` that hold any of `needles`, in any letter case, read and matched here. */
async function readHolding(
  tree: RepoTree,
  paths: readonly string[],
  needles: readonly string[],
): Promise<Set<string>> {
  const lowerNeedles = needles.map(needle => needle.toLowerCase());
  const texts = await readFiles(tree, paths);
  return new Set(
    paths.filter((_, i) => {
      const text = texts[i]?.toLowerCase();
      return text !== undefined && lowerNeedles.some(n => text.includes(n));
    }),
  );
}

/** How `filesMentioning` finds the files. */
export interface MentioningOptions {
  /** From how many files with a blob id `git grep` is run rather than reading them; default `GREP_FROM_FILES`. */
  grepFrom?: number;
  /**
   * The parses the reader takes its files from: a file whose content it
   * keeps is handed on unread, since the reader gets its parse without a
   * read and tests it itself (a 2k-pool cluster's pool files, parsed by the
   * read of its state, need no second look for a needle).
   */
  parses?: ParseCache;
}

/**
 * Of `paths`, those a reader looking for any of `needles` must read: of the
 * files whose content the tree names by blob id, only those holding a
 * needle (any letter case; from `filesContaining`, one `git grep` of the
 * clone's index, when there are `grepFrom` of them or more, else read and
 * matched here) or whose parse `parses` keeps; every other file (changed
 * since the commit, or a tree that cannot tell) is read. Each needle must be
 * text every file the reader can use holds, so the reader still tests what
 * it reads: on a 100k-file repository, reading every file for a few objects
 * took most of a pass.
 */
export async function filesMentioning(
  tree: RepoTree,
  paths: readonly string[],
  needles: readonly string[],
  { grepFrom = GREP_FROM_FILES, parses }: MentioningOptions = {},
): Promise<string[]> {
  const ids = (await tree.blobIds?.()) ?? new Map<string, string>();
  if (ids.size === 0) return [...paths];
  const parsed = (path: string) => {
    const id = ids.get(path);
    return id !== undefined && parses?.has(id) === true;
  };
  // Both walks go over every path of a scale checkout (131k): in turns.
  const vouched = await filterInTurns(
    paths,
    path => ids.has(path) && !parsed(path),
  );
  const containing =
    vouched.length < grepFrom
      ? await readHolding(tree, vouched, needles)
      : await tree.filesContaining?.(needles);
  if (!containing) return [...paths];
  return filterInTurns(
    paths,
    path => !ids.has(path) || parsed(path) || containing.has(path),
  );
}
