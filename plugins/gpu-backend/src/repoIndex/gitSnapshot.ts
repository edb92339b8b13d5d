/**
 * The index's view of the GitOps repository: a bare, shallow cache of the
 * base branch (one `git fetch` per refresh, no working tree) and the three
 * git questions an incremental index asks: which blob does every file have,
 * which files changed between two commits, and what do these blobs hold.
 *
 * Why not gpu-node's GitOpsRepository clone: its checkout (sparse set,
 * checkout, clean) costs most of a second per refresh on a 20k-file
 * repository, and the index needs git objects, not files on disk. Reading
 * blobs also never follows a symlink out of the repository; symlinks are
 * listed apart, and the index reports them as skipped files.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  eventLoopTurns,
  gitEnvironment,
  GitTimeoutError,
  isLocalRemote,
  redactCredentialPatterns as redactSecrets,
  remoteHost,
  Redactor,
  runGit,
  type GitAuth,
} from '@gpu-gitops/plugin-gpu-node';
import { CatFileBatch } from './catFileBatch';
import { diffCommits } from './treeDiff';

/**
 * Repository path → blob sha, or undefined for a deleted file (or one that
 * is no regular file any more).
 *
 * @public
 */
export type BlobChanges = Map<string, string | undefined>;

/**
 *  The files of a commit: regular files with their blobs, and the symbolic links, which are never read.
 *
 * @public
 */
export interface BlobListing {
  blobs: Map<string, string>;
  symlinks: string[];
}

/**
 *  What changed between two commits, and the changed paths that are symbolic links now.
 *
 * @public
 */
export interface BlobDiff {
  changes: BlobChanges;
  symlinks: string[];
}

/** @public */
export interface RepoSource {
  /** Fetches the base branch; returns its commit. */
  sync(): Promise<{ revision: string }>;
  /** Every regular file under `folders` at `revision` with its blob sha, and the symbolic links there. */
  listBlobs(revision: string, folders: string[]): Promise<BlobListing>;
  /** Files under `folders` that differ between two commits (new blob, or undefined when gone or no regular file). */
  changedBlobs(from: string, to: string, folders: string[]): Promise<BlobDiff>;
  /** The text of each blob. */
  readBlobs(shas: string[]): Promise<Map<string, string>>;
}

function pathspec(folders: string[]): string[] {
  return folders.some(f => f === '') ? [] : ['--', ...folders];
}

/** Regular files only: symlinks (120000) and submodules (160000) are not manifests. */
const REGULAR_FILE = /^100(644|755)$/;
/**
 * A symbolic link (git's tree entry mode, `Documentation/git-fast-import.txt`
 * "filemodify"). Its blob holds the link target; it is never read as a
 * manifest and is reported as skipped, as gpu-gitops never reads through
 * one in a checkout either.
 */
const SYMLINK = '120000';

/**
 * git's housekeeping (`git maintenance run --auto`: a gc once loose objects
 * or packs pile up) runs after the first fetch of a source and after every
 * this many fetches, not after each as `git fetch` would run it. A
 * one-commit fetch leaves a handful of loose objects (gc.auto's threshold is
 * 6,700), so the check nearly always finds nothing to do, yet its process
 * cost ~14 ms of CPU of a ~80 ms fetch on the bench repository
 * (`npm run bench -- allocation-index`, git 2.39).
 */
const FETCHES_PER_MAINTENANCE = 64;

/** A git command of the index that did not finish in time (its processes were killed). */
export class FetchTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchTimeoutError';
  }
}

/**
 * The token (and basic-auth user) for one fetch of the remote. Asked before
 * every fetch, never kept: a GitHub App installation token expires after an
 * hour, and a token held in a long-lived field is one more place to leak from.
 *
 * @public
 */
export type FetchCredentials = () => Promise<GitAuth>;

/** @public */
export class GitFetchSource implements RepoSource {
  readonly gitDir: string;
  /** For the local commands (ls-tree, cat-file): they never need credentials. */
  private readonly env: Record<string, string>;
  private readonly batch: CatFileBatch;
  private fetches = 0;

  constructor(
    private readonly options: {
      /** Remote URL or local path, never with credentials. */
      repoUrl: string;
      baseBranch: string;
      /** Parent folder of the cache (one bare repository per remote URL). */
      cacheDir: string;
      /** Credentials for an HTTP(S) remote; none for local paths and file:// URLs. */
      credentials?: FetchCredentials;
      /** The limit of each fetch (default 60 s): a stalled remote fails the refresh, the last snapshot stays. */
      timeoutMs?: number;
    },
  ) {
    const key = createHash('sha256')
      .update(options.repoUrl)
      .digest('hex')
      .slice(0, 16);
    this.gitDir = path.join(options.cacheDir, `gitops-index-${key}.git`);
    this.env = gitEnvironment(options.repoUrl, {});
    this.batch = new CatFileBatch(this.gitDir, this.env);
  }

  private async git(
    args: string[],
    env: Record<string, string> = this.env,
    redactor?: Redactor,
  ): Promise<string> {
    try {
      // gpu-node's runGit: git in a process group of its own, killed whole
      // (git-remote-http included) when the timeout ends a stalled fetch.
      return await runGit(this.gitDir, args, env, {
        timeoutMs: this.options.timeoutMs,
      });
    } catch (error) {
      const redact = (text: string) =>
        redactor ? redactor.redact(text) : redactSecrets(text);
      if (error instanceof GitTimeoutError) {
        throw new FetchTimeoutError(
          redact(
            `${error.message} (${this.options.repoUrl}); the index keeps its last snapshot`,
          ),
        );
      }
      throw new Error(
        redact(`git ${args[0]} failed: ${(error as Error).message}`),
      );
    }
  }

  /** The auth header goes in the fetch's environment only (gpu-node's gitEnvironment: never URL or argv). */
  private async fetchAuth(): Promise<GitAuth> {
    const { repoUrl, credentials } = this.options;
    if (!credentials || isLocalRemote(repoUrl)) return {};
    try {
      return await credentials();
    } catch (error) {
      throw new Error(
        redactSecrets(
          `credentials for ${remoteHost(repoUrl)} could not be resolved: ${(error as Error).message}`,
        ),
      );
    }
  }

  async sync(): Promise<{ revision: string }> {
    const ref = `refs/heads/${this.options.baseBranch}`;
    try {
      await fs.access(path.join(this.gitDir, 'HEAD'));
    } catch {
      // A cache made anew: a reader started in the old one reads nothing here.
      this.batch.close();
      await fs.mkdir(this.gitDir, { recursive: true });
      await this.git(['init', '--bare', '--quiet']);
    }
    const auth = await this.fetchAuth();
    const previous = await this.readRef(ref).catch(() => undefined);
    // The first fetch takes depth 1: the cache holds no history before it.
    // Later ones deepen nothing: the commits since the tip we hold come, and
    // git skips the shallow negotiation on both sides and the shallow
    // connectivity walk, which cost as much again as the rest of a
    // one-commit fetch. The previous tip stays in the object store, so
    // `git diff old new` still works after the fetch. (A rewritten branch
    // brings its history down to a commit we hold, once.)
    const depth = previous === undefined ? ['--depth', '1'] : [];
    try {
      await this.git(
        [
          'fetch',
          '--quiet',
          '--no-tags',
          // Run below, every FETCHES_PER_MAINTENANCE fetches.
          '--no-auto-maintenance',
          ...depth,
          this.options.repoUrl,
          `+${ref}:${ref}`,
        ],
        gitEnvironment(this.options.repoUrl, auth),
        new Redactor([auth.token]),
      );
    } catch (error) {
      const host = remoteHost(this.options.repoUrl);
      if (auth.token || !host || error instanceof FetchTimeoutError) {
        throw error;
      }
      // Public repositories need no token, so its absence is only worth
      // naming once the remote has refused us.
      throw new Error(
        `${(error as Error).message}\nNo credentials were sent to ${host}: ` +
          `configure an integrations entry (github, gitlab or gitea) for ${host} ` +
          'if the repository is private.',
      );
    }
    if (this.fetches++ % FETCHES_PER_MAINTENANCE === 0) {
      await this.git(['maintenance', 'run', '--auto', '--quiet']);
    }
    return { revision: await this.readRef(ref) };
  }

  /** The fetched tip: the loose ref file when there is one (saves a git process per refresh). */
  private async readRef(ref: string): Promise<string> {
    try {
      const sha = (
        await fs.readFile(path.join(this.gitDir, ...ref.split('/')), 'utf8')
      ).trim();
      if (/^[0-9a-f]{40,64}$/.test(sha)) return sha;
    } catch {
      // Packed or missing: ask git.
    }
    return (await this.git(['rev-parse', '--verify', ref])).trim();
  }

  async listBlobs(revision: string, folders: string[]): Promise<BlobListing> {
    const out = await this.git([
      'ls-tree',
      '-r',
      '-z',
      '--full-tree',
      revision,
      ...pathspec(folders),
    ]);
    const blobs = new Map<string, string>();
    const symlinks: string[] = [];
    // 130k entries on the scale bench: the event loop gets its turns.
    const yieldTurn = eventLoopTurns();
    for (const entry of out.split('\0')) {
      await yieldTurn();
      if (!entry) continue;
      const tab = entry.indexOf('\t');
      const [mode, type, sha] = entry.slice(0, tab).split(' ');
      if (type === 'blob' && REGULAR_FILE.test(mode)) {
        blobs.set(entry.slice(tab + 1), sha);
      } else if (mode === SYMLINK) {
        symlinks.push(entry.slice(tab + 1));
      }
    }
    return { blobs, symlinks };
  }

  async changedBlobs(
    from: string,
    to: string,
    folders: string[],
  ): Promise<BlobDiff> {
    const changes: BlobChanges = new Map();
    const symlinks: string[] = [];
    for (const change of await diffCommits(this.batch, from, to, folders)) {
      const { path: file, newMode, newSha } = change;
      changes.set(
        file,
        newMode && REGULAR_FILE.test(newMode) ? newSha : undefined,
      );
      if (newMode === SYMLINK) symlinks.push(file);
    }
    return { changes, symlinks };
  }

  /** The long-lived `git cat-file --batch` of the cache (no process per read). */
  async readBlobs(shas: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(shas)];
    let objects;
    try {
      objects = await this.batch.read(unique);
    } catch (error) {
      throw new Error(redactSecrets((error as Error).message));
    }
    const blobs = new Map<string, string>();
    // Decoding a first index's 20k pool files at once held the loop: turns.
    const yieldTurn = eventLoopTurns();
    for (const [i, sha] of unique.entries()) {
      await yieldTurn();
      const object = objects[i];
      if (object?.type === 'blob') blobs.set(sha, object.data.toString('utf8'));
    }
    return blobs;
  }
}
