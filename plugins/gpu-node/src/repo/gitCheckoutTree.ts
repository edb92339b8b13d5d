import { checkoutBlobIds } from '../git/checkoutBlobIds';
import { checkoutFilesContaining } from '../git/checkoutFilesContaining';
import { normaliseRepoPath } from '../layout/layout';
import { FsRepoTree } from './tree';

/**
 * A git checkout's work tree (the publisher's clone), which also names the
 * content of its unmodified files by blob id (`checkoutBlobIds.ts`, one
 * `git ls-files` the first time they are asked for), so the readers skip
 * reading and parsing the files whose content they parsed before
 * (`parseCache.ts`). A file written or deleted through the tree loses its id.
 *
 * @public
 */
export class GitCheckoutTree extends FsRepoTree {
  private ids?: Promise<Map<string, string>>;

  blobIds(): Promise<ReadonlyMap<string, string>> {
    this.ids ??= checkoutBlobIds(this.root);
    return this.ids;
  }

  filesContaining(
    needles: readonly string[],
  ): Promise<ReadonlySet<string> | undefined> {
    return checkoutFilesContaining(this.root, needles);
  }

  async writeFile(path: string, content: string): Promise<void> {
    await this.forgetting(path, () => super.writeFile(path, content));
  }

  async deleteFile(path: string): Promise<void> {
    await this.forgetting(path, () => super.deleteFile(path));
  }

  private async forgetting(path: string, change: () => Promise<void>) {
    try {
      await change();
    } finally {
      (await this.ids)?.delete(normaliseRepoPath(path));
    }
  }
}
