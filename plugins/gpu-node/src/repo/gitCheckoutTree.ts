import { createHash } from 'node:crypto';
import { promises as fs, type Stats } from 'node:fs';
import { join } from 'node:path';
import { checkoutFilesContaining } from '../git/checkoutFilesContaining';
import {
  readCheckoutListing,
  type CheckoutListing,
} from '../git/checkoutListing';
import { normaliseRepoPath } from '../layout/layout';
import { runBounded } from '../runBounded';
import { processTurns } from './eventLoopTurns';
import { lowerBound, pathsInFolder, sortedPaths } from './sortedPaths';
import { FsRepoTree, prefixMatches } from './tree';

/** Files whose kind is asked of the disk at once (see `readFiles.ts`). */
const CHECKS_IN_FLIGHT = 32;

/** What the checkout held when git listed it: blob ids, and its files sorted. */
interface Listed {
  ids: Map<string, string>;
  files: string[];
  /** Its files' paths and blob ids, hashed; undefined when git vouches not for all of them. */
  contentKey?: string;
}

/**
 * A git checkout's work tree (the publisher's clone). One `git ls-files`
 * (`checkoutListing.ts`), the first time it is needed, names the content of
 * its unmodified files by blob id, so the readers skip reading and parsing
 * the files whose content they parsed before (`parseCache.ts`), and lists
 * its files, so no listing walks the disk folder by folder. What is written
 * or deleted through the tree is laid over that listing, and a written file
 * loses its id. Anything else that changes the work tree meanwhile is not
 * seen: make one per checkout and run, as every caller does.
 *
 * @public
 */
export class GitCheckoutTree extends FsRepoTree {
  private listed?: Promise<Listed | undefined>;
  /** Written through the tree since it was made (listed whatever git said). */
  private readonly written = new Set<string>();
  /** Deleted through the tree since it was made (never listed). */
  private readonly deleted = new Set<string>();

  async blobIds(): Promise<ReadonlyMap<string, string>> {
    return (await this.listing())?.ids ?? new Map();
  }

  async contentKey(): Promise<string | undefined> {
    const listed = await this.listing();
    if (this.written.size > 0 || this.deleted.size > 0) return undefined;
    return listed?.contentKey;
  }

  filesContaining(
    needles: readonly string[],
  ): Promise<ReadonlySet<string> | undefined> {
    return checkoutFilesContaining(this.root, needles);
  }

  /** As a walk of the disk lists them (`FsRepoTree.listFiles`), from git's listing. */
  async listFiles(prefix = ''): Promise<string[]> {
    const listed = await this.listing();
    if (!listed) return super.listFiles(prefix);
    const start = prefix ? normaliseRepoPath(prefix) : '';
    // The listing is sorted: a folder's files are a slice of it, and only
    // what was written or deleted since is laid over it (a set and a sort of
    // the whole 131k-file listing, for each reader listing the repository,
    // were 100 ms blocks of the event loop each).
    let files = pathsInFolder(listed.files, start);
    if (this.deleted.size > 0) {
      files = files.filter(path => !this.deleted.has(path));
    }
    const added = [...this.written].filter(
      path =>
        prefixMatches(path, start) &&
        path !== start &&
        listed.files[lowerBound(listed.files, path)] !== path,
    );
    if (added.length > 0) files = [...files, ...added].sort();
    // Nothing listed: the disk says why (a symbolic link on the way is refused there).
    if (files.length === 0) return start ? super.listFiles(start) : [];
    return files;
  }

  async writeFile(path: string, content: string): Promise<void> {
    const key = normaliseRepoPath(path);
    await this.forgetting(key, () => super.writeFile(path, content));
    this.deleted.delete(key);
    this.written.add(key);
  }

  async deleteFile(path: string): Promise<void> {
    const key = normaliseRepoPath(path);
    await this.forgetting(key, () => super.deleteFile(path));
    this.written.delete(key);
    this.deleted.add(key);
  }

  private listing(): Promise<Listed | undefined> {
    this.listed ??= readCheckoutListing(this.root).then(
      listing => listing && this.filesOnDisk(listing),
    );
    return this.listed;
  }

  /** The listing's files as the disk holds them (see `checkoutListing.ts`). */
  private async filesOnDisk(listing: CheckoutListing): Promise<Listed> {
    const kinds = await this.kindsOf(listing.toCheck);
    const links = new Set(listing.links);
    const checkedFiles: string[] = [];
    const folders = [...listing.foldersToWalk];
    listing.toCheck.forEach((path, i) => {
      if (kinds[i] === 'file') checkedFiles.push(path);
      else if (kinds[i] === 'link') links.add(path);
      else if (kinds[i] === 'folder') folders.push(path);
    });
    const walked = await Promise.all(
      folders.map(folder => super.listFiles(folder).catch(() => [])),
    );
    const files = sortedPaths(
      [
        ...new Set([...listing.unmodified, ...checkedFiles, ...walked.flat()]),
      ].filter(path => !underAny(path, links)),
    );
    return {
      ids: listing.ids,
      files,
      contentKey: await contentKeyOf(files, listing.ids),
    };
  }

  /** What each path is on disk, by lstat (`other`: gone, a FIFO, a device). */
  private async kindsOf(paths: readonly string[]): Promise<PathKind[]> {
    return runBounded(
      paths.map(
        path => async () =>
          kindOf(await fs.lstat(join(this.root, path)).catch(() => undefined)),
      ),
      CHECKS_IN_FLIGHT,
    );
  }

  private async forgetting(path: string, change: () => Promise<void>) {
    try {
      await change();
    } finally {
      (await this.listed)?.ids.delete(path);
    }
  }
}

/** The paths and blob ids of `files`, hashed, with event-loop turns; undefined when one has no id. */
async function contentKeyOf(
  files: readonly string[],
  ids: ReadonlyMap<string, string>,
): Promise<string | undefined> {
  const hash = createHash('sha256');
  for (const path of files) {
    await processTurns();
    const id = ids.get(path);
    if (id === undefined) return undefined;
    hash.update(`${path}\0${id}\n`);
  }
  return hash.digest('hex');
}

type PathKind = 'file' | 'link' | 'folder' | 'other';

function kindOf(stat: Stats | undefined): PathKind {
  if (stat?.isSymbolicLink()) return 'link';
  if (stat?.isFile()) return 'file';
  return stat?.isDirectory() ? 'folder' : 'other';
}

/** Whether a folder of `path` (not `path` itself) is one of `links`. */
function underAny(path: string, links: ReadonlySet<string>): boolean {
  if (links.size === 0) return false;
  for (let slash = path.indexOf('/'); slash > 0;) {
    if (links.has(path.slice(0, slash))) return true;
    slash = path.indexOf('/', slash + 1);
  }
  return false;
}
