/**
 * Lookups in a sorted listing of repository paths (code-unit order, as
 * `Array.prototype.sort` leaves them): the paths under one folder sit
 * together, so they are found by binary search, not by filtering the whole
 * listing (100k workload folders, each filtering 130k paths, blocked the
 * updater's event loop for minutes on the scale repository).
 */

/** The first index of `sorted` whose path is not before `path`. */
export function lowerBound(sorted: readonly string[], path: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < path) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The paths of `sorted` inside folder `folder` ('' = all of them). */
export function pathsInFolder(
  sorted: readonly string[],
  folder: string,
): string[] {
  if (!folder) return [...sorted];
  const start = `${folder}/`;
  const out: string[] = [];
  for (let i = lowerBound(sorted, start); i < sorted.length; i++) {
    if (!sorted[i].startsWith(start)) break;
    out.push(sorted[i]);
  }
  return out;
}

/**
 * `paths` sorted, in place: git lists a clean checkout's files in order
 * already (by bytes, which is code-unit order but for characters past
 * U+FFFF), so one look along the list spares sorting 131k paths again, most
 * of the time.
 */
export function sortedPaths(paths: string[]): string[] {
  for (let i = 1; i < paths.length; i++) {
    if (paths[i - 1] > paths[i]) return paths.sort();
  }
  return paths;
}
