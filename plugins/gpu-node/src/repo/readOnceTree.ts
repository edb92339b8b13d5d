import { normaliseRepoPath } from '../layout/layout';
import { prefixMatches, type RepoTree } from './tree';

/** The path's one spelling, or undefined for a path the tree below refuses (let it say why). */
function keyOf(path: string): string | undefined {
  try {
    return normaliseRepoPath(path);
  } catch {
    return undefined;
  }
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
      // The whole tree listed already holds every folder's listing.
      const whole = key === '' ? undefined : this.listings.get('');
      listing = whole
        ? whole.then(files => files.filter(f => prefixMatches(f, key)))
        : this.base.listFiles(prefix);
      this.listings.set(key, listing);
    }
    return listing;
  }

  /** The tree below's: it forgets the id of a file written through it. */
  blobIds(): Promise<ReadonlyMap<string, string>> {
    return this.base.blobIds?.() ?? Promise.resolve(new Map());
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
  }
}
