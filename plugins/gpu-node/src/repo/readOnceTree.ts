import { normaliseRepoPath } from '../layout/layout';
import { lowerBound, pathsInFolder } from './sortedPaths';
import type { RepoTree } from './tree';

/** The path's one spelling, or undefined for a path the tree below refuses (let it say why). */
function keyOf(path: string): string | undefined {
  try {
    return normaliseRepoPath(path);
  } catch {
    return undefined;
  }
}

/** The nearest folder above `key` (the root `''` last) whose listing is known. */
function listedFolderAbove(
  key: string,
  listings: ReadonlyMap<string, unknown>,
): string | undefined {
  if (key === '') return undefined;
  for (
    let end = key.lastIndexOf('/');
    end > 0;
    end = key.lastIndexOf('/', end - 1)
  ) {
    const folder = key.slice(0, end);
    if (listings.has(folder)) return folder;
  }
  return listings.has('') ? '' : undefined;
}

/** The file `key` and every file under the folder `key` in a sorted listing. */
function filesUnder(sorted: readonly string[], key: string): string[] {
  const file = sorted[lowerBound(sorted, key)] === key ? [key] : [];
  return [...file, ...pathsInFolder(sorted, key)];
}

/**
 * A tree that reads each file and lists each folder of a checkout once for
 * one pass over it. The state reader, the name check and the kustomization
 * graph each read the same thousands of workload files of a big repository;
 * the checkout does not change while the pass runs (the publisher holds the
 * clone lock, changes are staged in memory). A write or delete through this
 * tree goes to the tree below and forgets what it changed.
 */
export class ReadOnceRepoTree implements RepoTree {
  private readonly texts = new Map<string, Promise<string | undefined>>();
  private readonly listings = new Map<string, Promise<string[]>>();
  private readonly sortedListings = new Map<string, Promise<string[]>>();

  constructor(private readonly base: RepoTree) {}

  readFile(path: string): Promise<string | undefined> {
    const key = keyOf(path);
    if (key === undefined) return this.base.readFile(path);
    let text = this.texts.get(key);
    if (!text) {
      text = this.base.readFile(path);
      this.texts.set(key, text);
    }
    return text;
  }

  listFiles(prefix = ''): Promise<string[]> {
    const key = prefix ? keyOf(prefix) : '';
    if (key === undefined) return this.base.listFiles(prefix);
    let listing = this.listings.get(key);
    if (!listing) {
      // A folder listed already holds the listing of every folder below it.
      const above = listedFolderAbove(key, this.listings);
      listing =
        above !== undefined
          ? this.sortedListing(above).then(files => filesUnder(files, key))
          : this.base.listFiles(prefix);
      this.listings.set(key, listing);
    }
    return listing;
  }

  /** A folder's listing in code-unit order, sorted here once whatever order the tree below keeps. */
  private sortedListing(folder: string): Promise<string[]> {
    let sorted = this.sortedListings.get(folder);
    if (!sorted) {
      sorted = this.listings.get(folder)!.then(files => [...files].sort());
      this.sortedListings.set(folder, sorted);
    }
    return sorted;
  }

  /** The tree below's: it forgets the id of a file written through it. */
  blobIds(): Promise<ReadonlyMap<string, string>> {
    return this.base.blobIds?.() ?? Promise.resolve(new Map());
  }

  /** The tree below's (a file written through it has no blob id, so the caller reads it). */
  filesContaining(
    needles: readonly string[],
  ): Promise<ReadonlySet<string> | undefined> {
    return this.base.filesContaining?.(needles) ?? Promise.resolve(undefined);
  }

  /** The tree below's: a write through this tree goes to it, and it then has none. */
  contentKey(): Promise<string | undefined> {
    return this.base.contentKey?.() ?? Promise.resolve(undefined);
  }

  async writeFile(path: string, content: string): Promise<void> {
    try {
      await this.base.writeFile(path, content);
    } finally {
      this.forget(path);
    }
  }

  async deleteFile(path: string): Promise<void> {
    try {
      await this.base.deleteFile(path);
    } finally {
      this.forget(path);
    }
  }

  private forget(path: string): void {
    const key = keyOf(path);
    if (key !== undefined) this.texts.delete(key);
    this.listings.clear();
    this.sortedListings.clear();
  }
}
