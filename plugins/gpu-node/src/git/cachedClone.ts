/**
 * The cached clone of a GitOps repository: one per remote URL (fetched, not
 * re-cloned), shallow, single-branch, blob-less where the remote supports it
 * and sparse (cone mode) to the folders a run touches, so big repositories
 * stay fast. Every git command runs through `run`, which binds the
 * credentials and the timeout and redacts every message that leaves it.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PublishLogger, Redactor } from '../redact';
import { isHttpRemote, isLocalRemote } from './auth';
import {
  classifyGitFailure,
  GitOpsError,
  parsePushRefusal,
  pushRefusalMessage,
} from './errors';
import { GitTimeoutError, runGit } from './runGit';
import { REACH_ROUNDS, type SparseReach } from './sparseReach';

/** File in `.git` that says the last run left the work tree clean. */
const CLEAN_MARK = 'gpu-gitops-clean';

/** The lock files of the git commands a run of ours starts in the clone. */
const KILLED_RUN_LOCKS = [
  'index.lock',
  'info/sparse-checkout.lock',
  'shallow.lock',
  'config.lock',
  'HEAD.lock',
];

export function cachedCloneDir(cacheDir: string, repoUrl: string): string {
  const key = createHash('sha256').update(repoUrl).digest('hex').slice(0, 16);
  const readable = repoUrl
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(-40);
  return path.join(cacheDir, `${readable || 'repo'}-${key}`);
}

export interface CachedCloneOptions {
  repoUrl: string;
  baseBranch: string;
  workDir: string;
  /** Environment of every git command (credentials, author). */
  env: Record<string, string>;
  redactor: Redactor;
  logger: PublishLogger;
  timeoutMs: number;
}

export class CachedClone {
  readonly repoUrl: string;
  readonly baseBranch: string;
  readonly workDir: string;
  readonly redactor: Redactor;
  readonly logger: PublishLogger;
  private readonly env: Record<string, string>;
  private readonly timeoutMs: number;
  /** Whether the current checkout is sparse (then changed folders must be added to it). */
  private sparse = true;
  /** The cone-mode folders of the current sparse checkout. */
  private sparseFolders: string[] = [];

  constructor(options: CachedCloneOptions) {
    this.repoUrl = options.repoUrl;
    this.baseBranch = options.baseBranch;
    this.workDir = options.workDir;
    this.env = options.env;
    this.redactor = options.redactor;
    this.logger = options.logger;
    this.timeoutMs = options.timeoutMs;
  }

  /**
   * Makes the cached clone exist, discards whatever a previous (possibly
   * killed) run left behind, fetches the base and checks it out. Returns the
   * base commit.
   */
  async sync(sparsePaths: string[], reach?: SparseReach): Promise<string> {
    // Every git process costs tens of milliseconds on a big repository, so a
    // fresh clone skips what it cannot need (fetch, clean); see `npm run bench`.
    const freshClone = await this.ensureClone();
    if (!freshClone) {
      // Leftovers of a killed run: lock files, a half-made commit, dirty files.
      await this.removeKilledRunLocks();
      await this.run([
        'fetch',
        '--prune',
        '--no-tags',
        '--depth',
        '1',
        'origin',
        `+refs/heads/${this.baseBranch}:refs/remotes/origin/${this.baseBranch}`,
      ]);
    }
    await this.setSparse(sparsePaths);
    if (!freshClone) {
      // A fresh clone is already on the base; a reused one may sit on our
      // last commit or hold a killed run's leftovers.
      await this.run([
        'checkout',
        '--force',
        '--detach',
        `refs/remotes/origin/${this.baseBranch}`,
      ]);
    }
    const dirty = !freshClone && !(await this.takeCleanMark());
    // The folders the checkout's files depend on are added before the
    // clean, so a killed run's leftovers in them go too.
    if (reach && this.sparse) await this.coverReach(reach);
    if (dirty) {
      // Only the folders this run reads and writes can matter: files are
      // committed by explicit path, so stray files elsewhere are harmless.
      await this.run([
        'clean',
        '-ffdq',
        '--',
        ...(this.sparse ? this.sparseFolders : ['.']),
      ]);
    }
    return (await this.run(['rev-parse', 'HEAD'])).trim();
  }

  /**
   * Removes the lock files a git process leaves when it is killed (our
   * timeout kills it): git refuses to start beside one ("File exists"), and
   * the clone is ours alone while `sync` runs (the caller holds its lock), so
   * none of them can belong to a live process. A `sparse-checkout` killed at
   * the timeout left `info/sparse-checkout.lock`, and every later run failed.
   */
  private async removeKilledRunLocks(): Promise<void> {
    await Promise.all(
      KILLED_RUN_LOCKS.map(lock =>
        fs.rm(path.join(this.workDir, '.git', lock), { force: true }),
      ),
    );
  }

  /** Marks the work tree as left clean by a finished run (no `git clean` next time). */
  async markClean(): Promise<void> {
    await fs.writeFile(path.join(this.workDir, '.git', CLEAN_MARK), '');
  }

  /** Adds to the sparse checkout those of `folders` it does not cover yet; returns them. */
  async coverFolders(folders: string[]): Promise<string[]> {
    if (!this.sparse) return [];
    const uncovered = [
      ...new Set(
        folders.filter(
          f => !this.sparseFolders.some(s => f === s || f.startsWith(`${s}/`)),
        ),
      ),
    ];
    if (uncovered.length) {
      await this.run(['sparse-checkout', 'add', '--', ...uncovered]);
      this.sparseFolders.push(...uncovered);
    }
    return uncovered;
  }

  /** Covers what `reach` says the checkout's files depend on, round by round (`sparseReach.ts`). */
  private async coverReach(reach: SparseReach): Promise<void> {
    let scan = reach.from;
    for (let round = 0; round < REACH_ROUNDS && scan.length > 0; round++) {
      scan = await this.coverFolders(
        await reach.referenced(this.workDir, scan),
      );
    }
  }

  /** True when the last run finished cleanly; removes the mark either way. */
  private async takeCleanMark(): Promise<boolean> {
    try {
      await fs.unlink(path.join(this.workDir, '.git', CLEAN_MARK));
      return true;
    } catch {
      return false;
    }
  }

  /** Makes the cached clone usable; true when it had to clone afresh. */
  private async ensureClone(): Promise<boolean> {
    if (await this.isHealthyClone()) return false;
    await fs.rm(this.workDir, { recursive: true, force: true });
    await fs.mkdir(path.dirname(this.workDir), { recursive: true });
    const args = [
      'clone',
      '--quiet',
      '--sparse',
      '--single-branch',
      '--no-tags',
      '--branch',
      this.baseBranch,
      '--depth',
      '1',
    ];
    // Plain local paths clone by hard links (already fast; depth and filter do not apply).
    if (!isLocalRemote(this.repoUrl) || /^file:/i.test(this.repoUrl)) {
      args.push('--filter=blob:none');
    }
    args.push('--', this.repoUrl, this.workDir);
    this.logger.info(
      `cloning ${this.repoUrl} (${this.baseBranch}) into the cache`,
    );
    await this.run(args, { cwd: path.dirname(this.workDir) });
    return true;
  }

  /** A clone we can reuse: a git dir for the same remote with the base fetched. */
  private async isHealthyClone(): Promise<boolean> {
    try {
      await fs.access(path.join(this.workDir, '.git'));
      const url = (
        await runGit(
          this.workDir,
          ['config', '--get', 'remote.origin.url'],
          this.env,
          { timeoutMs: this.timeoutMs },
        )
      ).trim();
      if (url !== this.repoUrl) return false;
      await runGit(
        this.workDir,
        [
          'rev-parse',
          '--verify',
          '--quiet',
          `refs/remotes/origin/${this.baseBranch}`,
        ],
        this.env,
        { timeoutMs: this.timeoutMs },
      );
      return true;
    } catch {
      return false;
    }
  }

  /** Cone-mode sparse checkout of `folders`; an empty folder ('' = repository root) means everything. */
  private async setSparse(folders: string[]): Promise<void> {
    if (folders.some(f => f.replace(/^[./]+|\/+$/g, '') === '')) {
      await this.run(['sparse-checkout', 'disable']);
      this.sparse = false;
      this.sparseFolders = [];
      return;
    }
    this.sparse = true;
    const unique = [
      ...new Set(folders.map(f => f.replace(/^\/+|\/+$/g, '')).filter(Boolean)),
    ].sort();
    this.sparseFolders = unique;
    await this.run(['sparse-checkout', 'set', '--cone', '--', ...unique]);
  }

  /** Runs git (in the work tree unless told otherwise); failures become GitOpsErrors with the secrets redacted. */
  async run(
    args: string[],
    options: { cwd?: string; stdin?: string } = {},
  ): Promise<string> {
    try {
      return await runGit(options.cwd ?? this.workDir, args, this.env, {
        stdin: options.stdin,
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      if (error instanceof GitTimeoutError) {
        throw new GitOpsError(
          this.redactor.redact(
            `${error.message} (${this.repoUrl}). If the repository is only slow, raise the timeout ` +
              '(gpu-gitops pr --timeout, gpu.gitops.timeoutSeconds).',
          ),
          'timeout',
        );
      }
      const output = this.redactor.redact(
        (error as Error).message ?? String(error),
      );
      const message =
        `git ${args[0]} failed for ${this.repoUrl}: ${output}`.trim();
      const kind = classifyGitFailure(output);
      if (kind === 'push-refused') {
        const refusal = parsePushRefusal(output)!;
        throw new GitOpsError(
          pushRefusalMessage(this.repoUrl, refusal),
          kind,
          refusal,
        );
      }
      throw new GitOpsError(
        kind === 'auth'
          ? `${message}\nThe git remote refused the credentials: the token is missing, invalid or lacks write access${
              isHttpRemote(this.repoUrl)
                ? ''
                : ' (for local remotes check file permissions)'
            }.`
          : message,
        kind,
      );
    }
  }
}
