import type { RepoTree } from '../repo/tree';
import type { ChangeSet, FileChange } from './types';

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

  async list(prefix: string): Promise<string[]> {
    const files = new Set(await this.base.listFiles(prefix));
    const folder = prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix;
    for (const [path, content] of this.staged) {
      if (!path.startsWith(folder)) continue;
      if (content === null) files.delete(path);
      else files.add(path);
    }
    return [...files].sort();
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
