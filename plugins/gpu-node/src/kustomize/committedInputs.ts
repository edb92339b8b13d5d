/**
 * What a kustomize build reads, named by git instead of by content: in a
 * checkout whose folders hold exactly what its index says, the index's blob
 * id of each file names every byte of it, so the "before" build of a root is
 * keyed without reading its files (a root at the top of a 20k-file
 * repository would otherwise read and hash all of them on every run).
 *
 * Anything git does not vouch for gives no key, and the caller falls back to
 * hashing the content: a modified, staged, untracked or ignored file under a
 * folder (`git status`), a file left out of a sparse checkout (kustomize
 * would not see it, the index would), a symbolic link or submodule (they
 * point outside the tree), or a folder that is no git checkout at all.
 */
import { gitInCheckout as git, REGULAR_FILE_MODES } from '../git/gitInCheckout';

/** Index entries under the folders, `H <mode> <blob> <stage>\t<path>`. */
async function indexEntries(dir: string, folders: string[]): Promise<string[]> {
  return (await git(dir, ['ls-files', '-s', '-t', '-z', '--', ...folders]))
    .split('\0')
    .filter(Boolean);
}

async function workTreeMatchesIndex(
  dir: string,
  folders: string[],
): Promise<boolean> {
  const status = await git(dir, [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--ignored=matching',
    '--',
    ...folders,
  ]);
  return status === '';
}

/**
 * The index entries (mode, blob id, path) of every file under the folders
 * the build reads, or undefined when the checkout at `dir` may hold
 * anything else there.
 */
export async function committedFiles(
  dir: string,
  folders: string[],
): Promise<string[] | undefined> {
  try {
    const [entries, clean] = await Promise.all([
      indexEntries(dir, folders),
      workTreeMatchesIndex(dir, folders),
    ]);
    // `S` marks an entry the sparse checkout left out of the work tree.
    const plainFiles = entries.every(entry => {
      const [tag, mode] = entry.split(' ', 2);
      return tag === 'H' && REGULAR_FILE_MODES.has(mode);
    });
    return clean && plainFiles ? entries : undefined;
  } catch {
    return undefined; // not a git checkout
  }
}
