/**
 * What one `git ls-files` tells of a checkout: the blob id of each file git
 * vouches for (`checkoutBlobIds.ts`) and which files the work tree holds.
 * Walking a 130k-file work tree folder by folder from node took 7 s, and a
 * re-render of the updater's pass listed the whole tree three times (the
 * GPU stack's files, the kustomizations, the Argo CD / Flux objects); git
 * reads its index and stats the files in one process, in under 2 s.
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
import { eventLoopTurns } from '../repo/eventLoopTurns';
import { blobIdsOfListing, gitInCheckout } from './checkoutBlobIds';

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

/** One `-z` record of `git ls-files -s -t`: its tag, mode and path (untracked records have no mode). */
function parseRecord(record: string): {
  tag: string;
  mode?: string;
  path: string;
} {
  const tab = record.indexOf('\t');
  if (tab < 0) return { tag: record.slice(0, 1), path: record.slice(2) };
  const [tag, mode] = record.slice(0, tab).split(' ');
  return { tag, mode, path: record.slice(tab + 1) };
}

/**
 * The listing from `git ls-files -s -t -m -d -o -z` output, read with turns
 * of the event loop: a scale checkout lists 131k files, a read of seconds
 * on a loaded machine.
 */
export async function checkoutListingOf(
  output: string,
  turn: () => Promise<void> = eventLoopTurns(),
): Promise<CheckoutListing> {
  const tracked = new Set<string>();
  const changed = new Set<string>();
  const gone = new Set<string>();
  const links = new Set<string>();
  const untracked: string[] = [];
  const foldersToWalk: string[] = [];
  for (const record of output.split('\0')) {
    await turn();
    if (!record) continue;
    const { tag, mode, path } = parseRecord(record);
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
  const unmodified: string[] = [];
  for (const path of tracked) {
    if (!changed.has(path) && !gone.has(path)) unmodified.push(path);
  }
  const toCheck = [...changed].filter(path => !gone.has(path));
  return {
    ids: await blobIdsOfListing(output, turn),
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
