/**
 * What one `git ls-files` tells of a checkout: the blob id of each file git
 * vouches for and which files the work tree holds. The readers then know a
 * file's content by name without reading it (`repo/parseCache.ts` keeps
 * what each blob parses to).
 * Walking a 130k-file work tree folder by folder from node took 7 s, and a
 * re-render of the updater's pass listed the whole tree three times (the
 * GPU stack's files, the kustomizations, the Argo CD / Flux objects); git
 * reads its index and stats the files in one process, in under 2 s.
 *
 * git vouches for a file when its index entry is a regular file at stage 0
 * that the work tree holds unmodified. Anything else gives no id and the
 * caller reads the file: a modified or deleted file (`-m` lists it again,
 * tagged `C`), a file a sparse checkout left out (`S`), a symbolic link or
 * a submodule (they point outside the tree), a conflict, an untracked file.
 *
 * Git lists more than the files and not always what the disk holds, so the
 * listing is sorted out here the way a walk of the disk would see it
 * (`FsRepoTree.listFiles`: regular files only, no symbolic link followed):
 * - a tracked regular file git found unmodified is on disk as it is;
 * - a tracked symbolic link is not a file, and nothing beneath it is the
 *   tree's;
 * - a deleted file (`R`) or one a sparse checkout left out (`S`) is not on
 *   disk;
 * - a modified, conflicted or untracked entry may now be anything (a link, a
 *   folder): the disk is asked (`toCheck`);
 * - an untracked folder git did not enter (a nested repository) and a
 *   submodule's folder are walked.
 */
import { processTurns } from '../repo/eventLoopTurns';
import { REGULAR_FILE_MODES, gitInCheckout } from './gitInCheckout';

/** A symbolic link's mode: no file, and nothing beneath it is the tree's. */
const SYMBOLIC_LINK_MODE = '120000';
/** A submodule's mode: a folder whose files are not git's to list here. */
const SUBMODULE_MODE = '160000';

/** What `readCheckoutListing` found. */
export interface CheckoutListing {
  /** Blob ids by repository path of the files git vouches for. */
  ids: Map<string, string>;
  /** Tracked regular files git found on disk unmodified. */
  unmodified: string[];
  /** Modified, conflicted or untracked paths: only the disk can tell what they are. */
  toCheck: string[];
  /** Folders whose files git does not list: untracked ones it did not enter, submodules'. */
  foldersToWalk: string[];
  /** Tracked symbolic links. */
  links: string[];
}

/**
 * One `-z` record of `git ls-files -s -t`: `<tag> <mode> <blob> <stage>\t<path>`,
 * or `<tag> <path>` for an untracked one (no mode, blob or stage).
 */
function parseRecord(record: string): {
  tag: string;
  mode?: string;
  blob?: string;
  stage?: string;
  path: string;
} {
  const tab = record.indexOf('\t');
  if (tab < 0) return { tag: record.slice(0, 1), path: record.slice(2) };
  const [tag, mode, blob, stage] = record.slice(0, tab).split(' ');
  return { tag, mode, blob, stage, path: record.slice(tab + 1) };
}

/**
 * The listing from `git ls-files -s -t -m -d -o -z` output, read in one
 * pass with turns of the event loop: a scale checkout lists 131k files, a
 * read of seconds on a loaded machine.
 */
export async function checkoutListingOf(
  output: string,
  turn: () => Promise<void> = processTurns,
): Promise<CheckoutListing> {
  const tracked = new Set<string>();
  const changed = new Set<string>();
  const gone = new Set<string>();
  const links = new Set<string>();
  const untracked: string[] = [];
  const foldersToWalk: string[] = [];
  const ids = new Map<string, string>();
  for (const record of output.split('\0')) {
    await turn();
    if (!record) continue;
    const { tag, mode, blob, stage, path } = parseRecord(record);
    // git vouches for the blob of a cached regular file at stage 0, unless
    // the path is also listed as changed (dropped below).
    if (tag === 'H' && stage === '0' && REGULAR_FILE_MODES.has(mode!)) {
      ids.set(path, blob!);
    }
    if (tag === '?') {
      if (path.endsWith('/')) foldersToWalk.push(path.slice(0, -1));
      else untracked.push(path);
    } else if (tag === 'R' || tag === 'S') {
      gone.add(path);
    } else if (tag === 'C' || tag === 'M') {
      changed.add(path);
    } else if (tag === 'H') {
      if (mode === SYMBOLIC_LINK_MODE) links.add(path);
      else if (mode === SUBMODULE_MODE) foldersToWalk.push(path);
      else tracked.add(path);
    }
  }
  for (const path of changed) ids.delete(path);
  const unmodified: string[] = [];
  for (const path of tracked) {
    if (!changed.has(path) && !gone.has(path)) unmodified.push(path);
  }
  const toCheck = [...changed].filter(path => !gone.has(path));
  return {
    ids,
    unmodified,
    toCheck: [...toCheck, ...untracked],
    foldersToWalk,
    links: [...links].filter(path => !changed.has(path)),
  };
}

/** The listing of the checkout at `dir`; undefined when `dir` is no git checkout. */
export async function readCheckoutListing(
  dir: string,
): Promise<CheckoutListing | undefined> {
  try {
    return await checkoutListingOf(
      await gitInCheckout(dir, [
        'ls-files',
        '-s',
        '-t',
        '-m',
        '-d',
        '-o',
        '-z',
      ]),
    );
  } catch {
    return undefined;
  }
}
