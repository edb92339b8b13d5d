import type { RepoTree } from './tree';

/**
 * Of `paths`, those a reader looking for any of `needles` must read: of the
 * files whose content the tree names by blob id, only those it finds holding
 * a needle without reading them (`filesContaining`: one `git grep` of the
 * clone's index, any letter case); every other file (changed since the
 * commit, or a tree that cannot tell) is read. Each needle must be text
 * every file the reader can use holds, so the reader still tests what it
 * reads: on a 100k-file repository, reading every file for a few objects
 * took most of a pass.
 */
export async function filesMentioning(
  tree: RepoTree,
  paths: readonly string[],
  needles: readonly string[],
): Promise<string[]> {
  const ids = (await tree.blobIds?.()) ?? new Map<string, string>();
  const containing =
    ids.size > 0 ? await tree.filesContaining?.(needles) : undefined;
  if (!containing) return [...paths];
  return paths.filter(path => !ids.has(path) || containing.has(path));
}
