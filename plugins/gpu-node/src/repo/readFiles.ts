import { runBounded } from '../runBounded';
import type { RepoTree } from './tree';

/**
 * Reads many files of a tree at once (a few dozen in flight: file reads run
 * on libuv's thread pool, and one at a time made reading thousands of small
 * files five times slower), in the order given. Missing files are undefined.
 */
export async function readFiles(
  tree: RepoTree,
  paths: readonly string[],
  inFlight = 32,
): Promise<(string | undefined)[]> {
  return runBounded(
    paths.map(path => () => tree.readFile(path)),
    inFlight,
  );
}
