import type { RepoTree } from '@gpu-gitops/plugin-gpu-node';

/**
 * A read-only view of some files, with a folder index so that listing one of
 * 20k workload folders does not scan every file.
 */
export class FilesView implements RepoTree {
  private readonly byFolder = new Map<string, string[]>();

  constructor(
    private readonly files: Map<string, string>,
    folders: Map<string, string[]> = new Map(),
  ) {
    for (const [folder, paths] of folders) {
      this.byFolder.set(folder, [...paths].sort());
    }
  }

  async readFile(path: string): Promise<string | undefined> {
    return this.files.get(path);
  }

  async listFiles(prefix = ''): Promise<string[]> {
    const folder = prefix.replace(/\/+$/, '');
    const indexed = this.byFolder.get(folder);
    if (indexed) return indexed;
    const start = folder ? `${folder}/` : '';
    return [...this.files.keys()]
      .filter(p => p.startsWith(start) || p === folder)
      .sort();
  }

  async writeFile(): Promise<void> {
    throw new Error('the index view is read-only');
  }
}
