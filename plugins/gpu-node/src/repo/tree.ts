import { constants, promises as fs, type Stats } from 'fs';
import { basename, dirname, join, resolve } from 'path';
import { GpuInputError } from '@gpu-gitops/plugin-gpu-common';
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

/**
 * Refusal of a symbolic link on a path gpu-gitops reads or writes: a link in
 * a GitOps repository (user content) could lead outside it — a write through
 * a dangling link would create the file wherever it points. `path` is the
 * repository path of the link itself (a file or a parent folder).
 */
export function symlinkRefusal(path: string): GpuInputError {
  return new GpuInputError([
    {
      path,
      rule: 'symlink',
      message:
        'is a symbolic link; gpu-gitops never reads or writes through a symbolic link in a GitOps ' +
        'repository or workspace (one could lead outside it): replace it with the file or folder itself',
    },
  ]);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException)?.code;
}

function entryState(stat: Stats): Located['state'] {
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'folder';
  return 'other';
}

/** Where a repository path leads on disk, and whether all of it exists. */
interface Located {
  abs: string;
  /** 'missing' when a component does not exist, or is a file where a folder is needed. */
  state: 'file' | 'folder' | 'other' | 'missing';
}

/**
 * A checked-out working tree on disk. `.git` is never listed.
 *
 * The repository is user content, so no symbolic link in it is ever
 * followed: every path is resolved against the real path of the root
 * (taken once; the root itself may be a link the caller chose) and every
 * existing component below it, the file included, is checked with lstat.
 * Reads and writes that meet a link throw `symlinkRefusal`; listings skip
 * links. The final open also refuses a link (O_NOFOLLOW), in case one
 * appears between the check and the open.
 */
export class FsRepoTree implements RepoTree {
  readonly root: string;
  private realRoot?: Promise<string>;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  /** The root's real path; for a root not created yet, its nearest existing ancestor's plus the rest. */
  private rootPath(): Promise<string> {
    this.realRoot ??= (async () => {
      let existing = this.root;
      const rest: string[] = [];
      for (;;) {
        try {
          return join(await fs.realpath(existing), ...rest);
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
          const parent = dirname(existing);
          if (parent === existing) return this.root;
          rest.unshift(basename(existing));
          existing = parent;
        }
      }
    })();
    return this.realRoot;
  }

  /** Walks `path` from the real root with lstat, refusing any symbolic link on the way. */
  private async locate(path: string): Promise<Located> {
    const parts = normaliseRepoPath(path).split('/');
    let abs = await this.rootPath();
    for (let i = 0; i < parts.length; i++) {
      abs = join(abs, parts[i]);
      let stat;
      try {
        stat = await fs.lstat(abs);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' || code === 'ENOTDIR') {
          return { abs: join(abs, ...parts.slice(i + 1)), state: 'missing' };
        }
        throw error;
      }
      if (stat.isSymbolicLink()) {
        throw symlinkRefusal(parts.slice(0, i + 1).join('/'));
      }
      const last = i === parts.length - 1;
      if (!last && !stat.isDirectory()) {
        return { abs: join(abs, ...parts.slice(i + 1)), state: 'missing' };
      }
      if (last) return { abs, state: entryState(stat) };
    }
    throw new Error(`unreachable: ${path}`);
  }

  async readFile(path: string): Promise<string | undefined> {
    const { abs, state } = await this.locate(path);
    if (state !== 'file') return undefined;
    const handle = await fs.open(
      abs,
      constants.O_RDONLY | constants.O_NOFOLLOW,
    );
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  }

  async listFiles(prefix = ''): Promise<string[]> {
    const start = prefix ? normaliseRepoPath(prefix) : '';
    if (start) {
      const { state } = await this.locate(start);
      if (state !== 'folder') return [];
    }
    const root = await this.rootPath();
    const out: string[] = [];
    const walk = async (rel: string) => {
      let entries;
      try {
        entries = await fs.readdir(rel ? join(root, ...rel.split('/')) : root, {
          withFileTypes: true,
        });
      } catch (e) {
        const code = errorCode(e);
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        throw e;
      }
      // Dirent types come from lstat (d_type): a link is neither a file nor a folder here.
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
    const { abs, state } = await this.locate(path);
    if (state === 'folder' || state === 'other') {
      throw new Error(`cannot write ${path}: it is not a regular file`);
    }
    await fs.mkdir(dirname(abs), { recursive: true });
    const handle = await fs.open(
      abs,
      constants.O_WRONLY |
        constants.O_CREAT |
        constants.O_TRUNC |
        constants.O_NOFOLLOW,
      0o644,
    );
    try {
      await handle.writeFile(content, 'utf8');
    } finally {
      await handle.close();
    }
  }
}
