import type { RepoTree } from '../repo/tree';
import type { ChangeSet, FileChange } from './types';

/**
 * Buffers writes on top of a RepoTree so a whole plan is applied (and any
 * conflict detected) before anything is written; the result is a ChangeSet.
 *
 * @public
 */
export class StagedTree {
  private readonly staged = new Map<string, string>();
  private readonly originals = new Map<string, string | undefined>();

  constructor(readonly base: RepoTree) {}

  async read(path: string): Promise<string | undefined> {
    if (this.staged.has(path)) return this.staged.get(path);
    return this.base.readFile(path);
  }

  async exists(path: string): Promise<boolean> {
    return (await this.read(path)) !== undefined;
  }

  async list(prefix: string): Promise<string[]> {
    const files = new Set(await this.base.listFiles(prefix));
    const folder = prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix;
    for (const path of this.staged.keys()) {
      if (path.startsWith(folder)) files.add(path);
    }
    return [...files].sort();
  }

  async write(path: string, content: string): Promise<void> {
    if (!this.originals.has(path)) {
      this.originals.set(path, await this.base.readFile(path));
    }
    this.staged.set(path, content);
  }

  toChangeSet(): ChangeSet {
    const changes: FileChange[] = [];
    for (const path of [...this.staged.keys()].sort()) {
      const content = this.staged.get(path)!;
      const previous = this.originals.get(path);
      if (previous === content) continue;
      changes.push(
        previous === undefined
          ? { path, action: 'create', content }
          : { path, action: 'update', content, previous },
      );
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
    await tree.writeFile(change.path, change.content);
  }
}
