import { lowerBound, sortedPaths } from '../repo/sortedPaths';
import type { RepoTree } from '../repo/tree';
import type { ChangeSet, FileChange } from './types';

/** Two sorted lists of distinct paths as one sorted list. */
function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i] < b[j] ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

/**
 * Buffers writes on top of a RepoTree so a whole plan is applied (and any
 * conflict detected) before anything is written; the result is a ChangeSet.
 *
 * @public
 */
export class StagedTree {
  /** Path → new content; `null` for a file the change deletes. */
  private readonly staged = new Map<string, string | null>();
  private readonly originals = new Map<string, string | undefined>();

  constructor(readonly base: RepoTree) {}

  async read(path: string): Promise<string | undefined> {
    if (this.staged.has(path)) return this.staged.get(path) ?? undefined;
    return this.base.readFile(path);
  }

  async exists(path: string): Promise<boolean> {
    return (await this.read(path)) !== undefined;
  }

  /**
   * The base's files under `prefix` as the change leaves them, sorted. The
   * base lists them sorted (`RepoTree.listFiles`): the few the change adds
   * are merged in rather than the whole listing put in a set and sorted
   * again (a scale checkout's 131k paths, 100 ms of the event loop).
   */
  async list(prefix: string): Promise<string[]> {
    const base = sortedPaths(await this.base.listFiles(prefix));
    const folder = prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix;
    const deleted = new Set<string>();
    const added: string[] = [];
    for (const [path, content] of this.staged) {
      if (!path.startsWith(folder)) continue;
      if (content === null) deleted.add(path);
      else if (base[lowerBound(base, path)] !== path) added.push(path);
    }
    const kept =
      deleted.size > 0 ? base.filter(path => !deleted.has(path)) : base;
    return added.length > 0 ? mergeSorted(kept, added.sort()) : kept;
  }

  /** Whether the change writes or deletes `path`: its content is then no longer the base's. */
  writes(path: string): boolean {
    return this.staged.has(path);
  }

  async write(path: string, content: string): Promise<void> {
    await this.remember(path);
    this.staged.set(path, content);
  }

  /** Deletes a file (a file the change itself created simply is not created). */
  async remove(path: string): Promise<void> {
    await this.remember(path);
    this.staged.set(path, null);
  }

  private async remember(path: string): Promise<void> {
    if (!this.originals.has(path)) {
      this.originals.set(path, await this.base.readFile(path));
    }
  }

  toChangeSet(): ChangeSet {
    const changes: FileChange[] = [];
    for (const path of [...this.staged.keys()].sort()) {
      const content = this.staged.get(path)!;
      const previous = this.originals.get(path);
      if (previous === (content ?? undefined)) continue;
      if (content === null) {
        changes.push({ path, action: 'delete', previous: previous! });
      } else {
        changes.push(
          previous === undefined
            ? { path, action: 'create', content }
            : { path, action: 'update', content, previous },
        );
      }
    }
    return { changes, empty: changes.length === 0 };
  }
}

/**
 *  Writes a change set onto a tree (e.g. `render --out`, or a working tree before commit).
 *
 * @public
 */
export async function writeChangeSet(
  tree: RepoTree,
  changeSet: ChangeSet,
): Promise<void> {
  for (const change of changeSet.changes) {
    if (change.action === 'delete') await tree.deleteFile(change.path);
    else await tree.writeFile(change.path, change.content);
  }
}
