/**
 * What a kustomize build reads, named by git instead of by content: in a
 * checkout whose folders hold exactly what HEAD says, the git tree id of
 * each folder names every byte below it, so the "before" build of a root is
 * keyed without reading its files (a root at the top of a 20k-file
 * repository would otherwise read and hash all of them on every run).
 *
 * Anything git does not vouch for gives no key, and the caller falls back to
 * hashing the content: a modified, staged, untracked or ignored file under a
 * folder (`git status`), a file left out of a sparse checkout (kustomize
 * would not see it, the tree id would), a symbolic link or submodule (they
 * point outside the tree), a folder HEAD does not have, or a folder that is
 * not the top of its own repository (a scratch copy inside some other one).
 */
import { promises as fs } from 'node:fs';
import { gitEnvironment } from '../git/auth';
import { runGit } from '../git/runGit';

/** `100644`/`100755`: regular files, the only entries a tree id fully names. */
const REGULAR_FILE_MODES = new Set(['100644', '100755']);

async function git(dir: string, args: string[]): Promise<string> {
  // No optional locks: a status must not refresh (lock) the index of a
  // checkout another build may be reading.
  return runGit(
    dir,
    ['--no-optional-locks', '--literal-pathspecs', ...args],
    gitEnvironment(dir, {}),
  );
}

/** Every index entry under the folders is a regular file present in the work tree. */
async function onlyCheckedOutFiles(
  dir: string,
  folders: string[],
): Promise<boolean> {
  const entries = (
    await git(dir, ['ls-files', '-s', '-t', '-z', '--', ...folders])
  )
    .split('\0')
    .filter(Boolean);
  // `H 100644 <blob> 0\tpath`; `S` marks an entry sparse checkout left out.
  return entries.every(entry => {
    const [tag, mode] = entry.split(' ', 2);
    return tag === 'H' && REGULAR_FILE_MODES.has(mode);
  });
}

async function workTreeMatchesHead(
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
 * `folder → tree id` of HEAD for each folder the build reads, or undefined
 * when the checkout at `dir` may hold anything else there.
 */
export async function committedFolderTrees(
  dir: string,
  folders: string[],
): Promise<Record<string, string> | undefined> {
  try {
    const revisions = folders.map(folder =>
      folder === '.' ? 'HEAD^{tree}' : `HEAD:${folder}`,
    );
    const [top, ...trees] = (
      await git(dir, ['rev-parse', '--show-toplevel', ...revisions])
    )
      .trim()
      .split('\n');
    if (
      (await fs.realpath(top)) !== (await fs.realpath(dir)) ||
      trees.length !== folders.length
    ) {
      return undefined;
    }
    const [checkedOut, clean] = await Promise.all([
      onlyCheckedOutFiles(dir, folders),
      workTreeMatchesHead(dir, folders),
    ]);
    if (!checkedOut || !clean) return undefined;
    return Object.fromEntries(folders.map((folder, i) => [folder, trees[i]]));
  } catch {
    // Not a git checkout, no HEAD, or a folder HEAD does not have.
    return undefined;
  }
}
