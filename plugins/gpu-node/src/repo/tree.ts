import { promises as fs } from 'fs';
import { join, resolve, sep } from 'path';
import { normaliseRepoPath } from '../layout/layout';

/**
 * A view of a GitOps repository's files. Paths are repository-relative POSIX
 * paths; implementations refuse paths that escape the repository.
 */
export interface RepoTree {
  /** The file's text, or undefined when it does not exist. */
  readFile(path: string): Promise<string | undefined>;
  /** All file paths under `prefix` (a folder path, '' for all), sorted. */
  listFiles(prefix?: string): Promise<string[]>;
  /** Creates or replaces a file (creating folders). */
  writeFile(path: string, content: string): Promise<void>;
}

function prefixMatches(path: string, prefix: string): boolean {
  if (!prefix) return true;
  const folder = prefix.endsWith('/') ? prefix : `${prefix}/`;
  return path.startsWith(folder) || path === prefix;
}

/** An in-memory tree: for tests and for rendering onto an empty tree. */
export class MemoryRepoTree implements RepoTree {
  readonly files: Map<string, string>;

  constructor(files?: Map<string, string> | Record<string, string>) {
    this.files = new Map();
    const entries =
      files instanceof Map ? [...files.entries()] : Object.entries(files ?? {});
    for (const [path, content] of entries) {
      this.files.set(normaliseRepoPath(path), content);
    }
  }

  async readFile(path: string): Promise<string | undefined> {
    return this.files.get(normaliseRepoPath(path));
  }

  async listFiles(prefix = ''): Promise<string[]> {
    const p = prefix ? normaliseRepoPath(prefix) : '';
    return [...this.files.keys()].filter(f => prefixMatches(f, p)).sort();
  }

  async writeFile(path: string, content: string): Promise<void> {
    this.files.set(normaliseRepoPath(path), content);
  }
}

/** A checked-out working tree on disk. `.git` is never listed. */
export class FsRepoTree implements RepoTree {
  readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private abs(path: string): string {
    const rel = normaliseRepoPath(path);
    const abs = resolve(this.root, ...rel.split('/'));
    if (abs !== this.root && !abs.startsWith(this.root + sep)) {
      throw new Error(`path ${path} escapes the repository`);
    }
    return abs;
  }

  /**
   * A repository may contain symlinks (it is user content): refuse to read
   * or write through one that leads outside the working tree.
   */
  private async safeAbs(path: string): Promise<string> {
    const abs = this.abs(path);
    const root = await fs.realpath(this.root).catch(() => this.root);
    let existing = abs;
    for (;;) {
      try {
        const real = await fs.realpath(existing);
        if (real !== root && !real.startsWith(root + sep)) {
          throw new Error(
            `path ${path} leads outside the repository through a symlink`,
          );
        }
        return abs;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        const parent = resolve(existing, '..');
        // Walked up past the root: the repository folder does not exist yet,
        // so nothing inside it can be a symlink.
        if (parent === existing || !parent.startsWith(this.root)) return abs;
        existing = parent;
      }
    }
  }

  async readFile(path: string): Promise<string | undefined> {
    try {
      return await fs.readFile(await this.safeAbs(path), 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') {
        return undefined;
      }
      throw e;
    }
  }

  async listFiles(prefix = ''): Promise<string[]> {
    const start = prefix ? normaliseRepoPath(prefix) : '';
    const out: string[] = [];
    const walk = async (rel: string) => {
      let entries;
      try {
        entries = await fs.readdir(
          rel ? join(this.root, ...rel.split('/')) : this.root,
          {
            withFileTypes: true,
          },
        );
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        throw e;
      }
      for (const entry of entries) {
        if (entry.name === '.git') continue;
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) await walk(child);
        else if (entry.isFile()) out.push(child);
      }
    };
    await walk(start);
    return out.sort();
  }

  async writeFile(path: string, content: string): Promise<void> {
    const abs = await this.safeAbs(path);
    await fs.mkdir(resolve(abs, '..'), { recursive: true });
    await fs.writeFile(abs, content, 'utf8');
  }
}
