/**
 * The git blob id of each file of a checkout that git vouches for, from one
 * `git ls-files` for the whole checkout: the readers then know a file's
 * content by name without reading it (`repo/parseCache.ts` keeps what each
 * blob parses to). One process, however many files: a re-render of the
 * updater on a 100k-file repository listed them in one spawn.
 *
 * git vouches for a file when its index entry is a regular file at stage 0
 * that the work tree holds unmodified. Anything else gives no id and the
 * caller reads the file: a modified or deleted file (`-m` lists it again,
 * tagged `C`), a file a sparse checkout left out (`S`: not on disk), a
 * symbolic link or a submodule (they point outside the tree), a conflict,
 * an untracked file (no entry), or a folder that is no git checkout.
 */
import { gitEnvironment } from './auth';
import { eventLoopTurns } from '../repo/eventLoopTurns';
import { runGit } from './runGit';

/** `100644`/`100755`: regular files, the only entries a blob id fully names. */
export const REGULAR_FILE_MODES = new Set(['100644', '100755']);

/**
 * git in a checkout that may be read by others meanwhile: no optional
 * locks (a status must not refresh, and lock, the index), paths literal.
 */
export function gitInCheckout(dir: string, args: string[]): Promise<string> {
  return runGit(
    dir,
    ['--no-optional-locks', '--literal-pathspecs', ...args],
    gitEnvironment(dir, {}),
  );
}

/** One `-z` record of `git ls-files -s -t`: `<tag> <mode> <blob> <stage>\t<path>`. */
function parseEntry(record: string): {
  tag: string;
  mode: string;
  blob: string;
  stage: string;
  path: string;
} {
  const tab = record.indexOf('\t');
  const [tag, mode, blob, stage] = record.slice(0, tab).split(' ');
  return { tag, mode, blob, stage, path: record.slice(tab + 1) };
}

/**
 * Blob ids by repository path from `git ls-files -s -t -m -z` output:
 * cached entries (`H`) of regular files at stage 0, less every path also
 * listed as modified (`C`).
 */
export async function blobIdsOfListing(
  listing: string,
  turn: () => Promise<void> = eventLoopTurns(),
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const modified = new Set<string>();
  for (const record of listing.split('\0')) {
    await turn();
    if (!record) continue;
    const entry = parseEntry(record);
    if (entry.tag === 'C') modified.add(entry.path);
    else if (
      entry.tag === 'H' &&
      entry.stage === '0' &&
      REGULAR_FILE_MODES.has(entry.mode)
    ) {
      ids.set(entry.path, entry.blob);
    }
  }
  for (const path of modified) ids.delete(path);
  return ids;
}
