import { constants, promises as fs, type Stats } from 'fs';
import { randomBytes } from 'crypto';
import { basename, dirname, join, resolve } from 'path';
import { GpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { normaliseRepoPath } from '../layout/layout';

/**
 * A view of a GitOps repository's files. Paths are repository-relative POSIX
 * paths; implementations refuse paths that escape the repository.
 *
 * @public
 */
export interface RepoTree {
  /** The file's text, or undefined when it does not exist. */
  readFile(path: string): Promise<string | undefined>;
  /** All file paths under `prefix` (a folder path, '' for all), sorted. */
  listFiles(prefix?: string): Promise<string[]>;
  /** Creates or replaces a file (creating folders). */
  writeFile(path: string, content: string): Promise<void>;
  /** Removes a file (no error when it is not there); its folders stay. */
  deleteFile(path: string): Promise<void>;
  /**
   * The git blob id of each file whose content the tree knows without
   * reading it (a git checkout's unmodified files), by path; a file not
   * there is read. Absent: every file is read.
   */
  blobIds?(): Promise<ReadonlyMap<string, string>>;
  /**
   * Among the files `blobIds` names, those whose content holds any of
   * `needles` (fixed strings, in any letter case), found without reading them (a git checkout:
   * one `git grep`); undefined when the tree cannot tell, and then the
   * caller reads each file.
   */
  filesContaining?(
    needles: readonly string[],
  ): Promise<ReadonlySet<string> | undefined>;
  /**
   * A key naming every file the tree holds by path and content, when the
   * tree knows them all without reading (a git checkout nothing was written
   * to, that holds no file git does not vouch for): two trees with one key
   * hold the same files. Undefined when it cannot tell.
   */
  contentKey?(): Promise<string | undefined>;
}

export function prefixMatches(path: string, prefix: string): boolean {
  if (!prefix) return true;
  const folder = prefix.endsWith('/') ? prefix : `${prefix}/`;
  return path.startsWith(folder) || path === prefix;
}

/**
 *  An in-memory tree: for tests and for rendering onto an empty tree.
 *
 * @public
 */
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

  async deleteFile(path: string): Promise<void> {
    this.files.delete(normaliseRepoPath(path));
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

/** Opens the file itself, never a symbolic link (ELOOP) or a FIFO's writer wait (O_NONBLOCK). */
const READ_FLAGS =
  constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** A new file of our own, never an existing one (nor a link planted under its name). */
const CREATE_FLAGS =
  constants.O_WRONLY |
  constants.O_CREAT |
  constants.O_EXCL |
  constants.O_NOFOLLOW;

/**
 * A checked-out working tree on disk. `.git` is never listed.
 *
 * The repository is user content, so no symbolic link in it is ever
 * followed: every path is resolved against the real path of the root
 * (taken once; the root itself may be a link the caller chose), every
 * folder below it is checked with lstat, and the file itself is opened with
 * O_NOFOLLOW (a link there, dangling or not, fails with ELOOP). Reads and
 * writes that meet a link throw `symlinkRefusal`; listings skip links.
 *
 * Folders found real are remembered for the life of the object (an lstat
 * per folder per file made reading a big repository half again as slow):
 * make one per checkout or run, as every caller does.
 *
 * @public
 */
export class FsRepoTree implements RepoTree {
  readonly root: string;
  private realRoot?: Promise<string>;
  /** Repository paths of folders known to be real folders ('' = the root). */
  private readonly realFolders = new Set<string>();

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

  /**
   * Walks `folders` (repository path segments) from the real root with
   * lstat, refusing any symbolic link; with `create`, makes the missing
   * ones. Returns the absolute path, or undefined when a folder is missing
   * (or is a file) and `create` is off.
   */
  private async folderPath(
    folders: string[],
    create: boolean,
  ): Promise<string | undefined> {
    const root = await this.rootPath();
    if (create && !this.realFolders.has('')) {
      await fs.mkdir(root, { recursive: true });
      this.realFolders.add('');
    }
    let abs = root;
    let rel = '';
    for (const part of folders) {
      abs = join(abs, part);
      rel = rel ? `${rel}/${part}` : part;
      if (this.realFolders.has(rel)) continue;
      let stat: Stats | undefined;
      try {
        stat = await fs.lstat(abs);
      } catch (error) {
        const code = errorCode(error);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      }
      if (stat?.isSymbolicLink()) throw symlinkRefusal(rel);
      if (!stat && create) {
        await fs.mkdir(abs);
      } else if (!stat?.isDirectory()) {
        if (!create) return undefined;
        throw new Error(`cannot write under ${rel}: it is not a folder`);
      }
      this.realFolders.add(rel);
    }
    return abs;
  }

  async readFile(path: string): Promise<string | undefined> {
    const parts = normaliseRepoPath(path).split('/');
    const folder = await this.folderPath(parts.slice(0, -1), false);
    if (folder === undefined) return undefined;
    let handle;
    try {
      handle = await fs.open(join(folder, parts[parts.length - 1]), READ_FLAGS);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP') throw symlinkRefusal(parts.join('/'));
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    try {
      // A folder, a FIFO or a device is no file of the repository.
      if (!(await handle.stat()).isFile()) return undefined;
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  }

  async listFiles(prefix = ''): Promise<string[]> {
    const start = prefix ? normaliseRepoPath(prefix) : '';
    const root = await this.folderPath(start ? start.split('/') : [], false);
    if (root === undefined) return [];
    const out: string[] = [];
    const walk = async (rel: string, abs: string) => {
      let entries;
      try {
        entries = await fs.readdir(abs, { withFileTypes: true });
      } catch (e) {
        const code = errorCode(e);
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        throw e;
      }
      // Dirent types come from lstat (d_type): a link is neither a file nor a folder here.
      for (const entry of entries) {
        if (entry.name === '.git') continue;
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          this.realFolders.add(child);
          await walk(child, join(abs, entry.name));
        } else if (entry.isFile()) out.push(child);
      }
    };
    await walk(start, root);
    return out.sort();
  }

  /**
   * Writes by replacing: the content goes into a new file beside the target,
   * which is then renamed over it. Truncating the target in place would write
   * into its inode, and a hard link makes that inode a file outside the tree
   * too (`ln /etc/x repo/clusters/a.yaml`): the file outside must never change.
   * A symbolic link at the target is refused, as everywhere; the replaced
   * file's permission bits are kept.
   */
  async writeFile(path: string, content: string): Promise<void> {
    const parts = normaliseRepoPath(path).split('/');
    const folder = (await this.folderPath(parts.slice(0, -1), true))!;
    const name = parts[parts.length - 1];
    const target = join(folder, name);
    let existing: Stats | undefined;
    try {
      existing = await fs.lstat(target);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    if (existing?.isSymbolicLink()) throw symlinkRefusal(parts.join('/'));
    if (existing && !existing.isFile()) {
      throw new Error(`cannot write ${parts.join('/')}: it is not a file`);
    }
    const temp = join(
      folder,
      `.${name}.gpu-gitops-${randomBytes(6).toString('hex')}.tmp`,
    );
    const handle = await fs.open(temp, CREATE_FLAGS, 0o644);
    try {
      try {
        if (existing) await handle.chmod(existing.mode & 0o7777);
        await handle.writeFile(content, 'utf8');
      } finally {
        await handle.close();
      }
      await fs.rename(temp, target);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  /**
   * Removes the file itself: a symbolic link on the way (or the entry
   * itself a link) is refused like a write, and a missing file is no error.
   */
  async deleteFile(path: string): Promise<void> {
    const parts = normaliseRepoPath(path).split('/');
    const folder = await this.folderPath(parts.slice(0, -1), false);
    if (folder === undefined) return;
    const file = join(folder, parts[parts.length - 1]);
    let stat: Stats;
    try {
      stat = await fs.lstat(file);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return;
      throw error;
    }
    if (stat.isSymbolicLink()) throw symlinkRefusal(parts.join('/'));
    if (!stat.isFile()) {
      throw new Error(`cannot delete ${parts.join('/')}: it is not a file`);
    }
    await fs.unlink(file);
  }
}
