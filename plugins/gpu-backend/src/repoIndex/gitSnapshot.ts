/**
 * The index's view of the GitOps repository: a cached clone (gpu-node's
 * GitOpsRepository, sparse to the folders the index reads) plus the two git
 * questions an incremental index asks: which blob does every file have, and
 * which files changed between two commits.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { GitOpsRepository } from '@gpu-gitops/plugin-gpu-node';

const run = promisify(execFile);

/** Repository path -> blob sha, or undefined for a deleted file. */
export type BlobChanges = Map<string, string | undefined>;

export interface RepoCheckout {
  /** Working tree holding the checked-out folders (readable with FsRepoTree). */
  workDir: string;
  /** Commit the working tree is at. */
  revision: string;
}

/** Where the index gets commits and blob ids from; tests may give a plain working copy. */
export interface RepoSource {
  /** Fetches the base branch and checks it out; returns the commit. */
  sync(): Promise<RepoCheckout>;
  /** Every file under `folders` at `revision` with its blob sha. */
  listBlobs(revision: string, folders: string[]): Promise<Map<string, string>>;
  /** Files under `folders` that differ between two commits (new blob sha, or undefined when deleted). */
  changedBlobs(
    from: string,
    to: string,
    folders: string[],
  ): Promise<BlobChanges>;
}

async function git(workDir: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd: workDir,
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
  return stdout;
}

function pathspec(folders: string[]): string[] {
  return folders.some(f => f === '') ? [] : ['--', ...folders];
}

/** `git ls-tree -r -z`: "<mode> blob <sha>\t<path>\0" per file. */
export async function listBlobsAt(
  workDir: string,
  revision: string,
  folders: string[],
): Promise<Map<string, string>> {
  const out = await git(workDir, [
    'ls-tree',
    '-r',
    '-z',
    '--full-tree',
    revision,
    ...pathspec(folders),
  ]);
  const blobs = new Map<string, string>();
  for (const entry of out.split('\0')) {
    if (!entry) continue;
    const tab = entry.indexOf('\t');
    const [, type, sha] = entry.slice(0, tab).split(' ');
    if (type === 'blob') blobs.set(entry.slice(tab + 1), sha);
  }
  return blobs;
}

/**
 * `git diff --raw -z` between two commits: only the paths that changed, with
 * their new blob (all zeros = deleted). Renames are reported as delete + add.
 */
export async function changedBlobsBetween(
  workDir: string,
  from: string,
  to: string,
  folders: string[],
): Promise<BlobChanges> {
  const out = await git(workDir, [
    'diff',
    '--raw',
    '-z',
    '--no-renames',
    '--no-abbrev',
    from,
    to,
    ...pathspec(folders),
  ]);
  const fields = out.split('\0');
  const changes: BlobChanges = new Map();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i];
    if (!meta.startsWith(':')) break;
    const [, , , newSha, status] = meta.slice(1).split(' ');
    const deleted = status === 'D' || /^0+$/.test(newSha);
    changes.set(fields[i + 1], deleted ? undefined : newSha);
  }
  return changes;
}

/** A RepoSource over gpu-node's cached clone of the configured remote. */
export class GitOpsRepositorySource implements RepoSource {
  private readonly repository: GitOpsRepository;
  private readonly sparseFolders: string[];

  constructor(options: {
    repoUrl: string;
    baseBranch: string;
    cacheDir: string;
    /** Folders to check out (cone mode); '' for the whole repository. */
    sparseFolders: string[];
  }) {
    this.repository = new GitOpsRepository({
      repoUrl: options.repoUrl,
      baseBranch: options.baseBranch,
      cacheDir: options.cacheDir,
    });
    this.sparseFolders = options.sparseFolders;
  }

  async sync(): Promise<RepoCheckout> {
    const { workDir, baseSha } = await this.repository.checkoutBase(
      this.sparseFolders,
    );
    return { workDir, revision: baseSha };
  }

  listBlobs(revision: string, folders: string[]) {
    return listBlobsAt(this.repository.workDir, revision, folders);
  }

  changedBlobs(from: string, to: string, folders: string[]) {
    return changedBlobsBetween(this.repository.workDir, from, to, folders);
  }
}
