/**
 * The GitOps repository as the publisher sees it: a cached clone per remote
 * (fetched, not re-cloned), shallow, single-branch, blob-less where the
 * remote supports it and sparse (cone mode) to the folders a change touches,
 * so big repositories stay fast. One branch per request, one commit on the
 * current base, pushed with a lease so we never overwrite commits that are not
 * ours. Every message that leaves this file is redacted.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FileChange } from '../changes/types';
import { PublishLogger, Redactor, redactingLogger } from '../redact';
import { FsRepoTree } from '../repo/tree';
import { checkGitOpsRepoUrl } from '@gpu-gitops/plugin-gpu-common';
import { gitEnvironment, isHttpRemote, isLocalRemote } from './auth';
import {
  classifyGitFailure,
  GitOpsError,
  parsePushRefusal,
  pushRefusalMessage,
} from './errors';
import { DEFAULT_GIT_TIMEOUT_MS, GitTimeoutError, runGit } from './runGit';
import { withCloneLock } from './cloneLock';

export interface GitAuthor {
  name: string;
  email: string;
}

/** File in `.git` that says the last run left the work tree clean. */
const CLEAN_MARK = 'gpu-gitops-clean';

export const DEFAULT_GIT_AUTHOR: GitAuthor = {
  name: 'GPU GitOps',
  email: 'gpu-gitops@users.noreply.backstage.io',
};

export interface GitOpsRepositoryOptions {
  /** Remote URL (https://…, file://…, or a local path); checked by gpu-common `checkGitOpsRepoUrl`. */
  repoUrl: string;
  baseBranch?: string;
  /** Directory holding cached clones, one sub-directory per remote URL. */
  cacheDir: string;
  token?: string;
  /** Basic-auth user for the token (default `x-access-token`; GitLab: `oauth2`). */
  tokenUsername?: string;
  author?: GitAuthor;
  redactor?: Redactor;
  logger?: PublishLogger;
  /**
   * Each git command (clone, fetch, push, …) is stopped after this long and
   * the run fails with kind `timeout`: a remote that accepts the connection
   * and never answers must not hold the run and its clone lock. Default 60 s.
   */
  timeoutMs?: number;
}

/** What the remote branch of a request holds before we push. */
export interface RemoteBranchState {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
}

export interface CommitResult {
  sha: string;
  tree: string;
  files: string[];
}

/** The commit one build attempt wants on the branch. */
export interface BuiltCommit {
  changes: FileChange[];
  message: string;
}

export interface BuildContext {
  /** Checkout of the base (sparse), readable with FsRepoTree. */
  workDir: string;
  baseSha: string;
  /** 1 for the first build, 2+ for rebuilds after a rejected push. */
  attempt: number;
}

export interface PublishBranchOptions {
  branch: string;
  /** Trailer line (`Gpu-Request: ns/name`) that marks the branch's commit as ours. */
  trailer: string;
  /** Folders to check out (cone mode); the folders of changed files are added. */
  sparsePaths: string[];
  /**
   * Builds the change set on the freshly fetched base. Called again after a
   * push was rejected because the base or the branch moved. Returning
   * undefined (or no changes) means the base already holds the request.
   */
  build(context: BuildContext): Promise<BuiltCommit | undefined>;
  /** Push attempts (default 3). */
  maxAttempts?: number;
  /** Called right before each push; lets tests and callers interleave (e.g. abort). */
  beforePush?(attempt: number): Promise<void>;
}

export interface PublishBranchResult {
  branch: string;
  baseSha: string;
  /** The commit now at the remote branch (undefined when nothing changed). */
  commit?: string;
  /** False when the base already holds the request: no commit, no push. */
  changed: boolean;
  /** False when the remote branch already held exactly this commit content on this base. */
  pushed: boolean;
  /** The branch existed on the remote before this run. */
  branchExisted: boolean;
  attempts: number;
  files: string[];
}

export function cachedCloneDir(cacheDir: string, repoUrl: string): string {
  const key = createHash('sha256').update(repoUrl).digest('hex').slice(0, 16);
  const readable = repoUrl
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(-40);
  return path.join(cacheDir, `${readable || 'repo'}-${key}`);
}

/** Cone-mode sparse checkout takes folders: the parent folder of each file. */
function folderOf(file: string): string | undefined {
  const dir = path.posix.dirname(file);
  return dir === '.' ? undefined : dir;
}

export class GitOpsRepository {
  readonly repoUrl: string;
  readonly baseBranch: string;
  readonly workDir: string;
  private readonly redactor: Redactor;
  private readonly env: Record<string, string>;
  private readonly author: GitAuthor;
  private readonly logger: PublishLogger;
  private readonly timeoutMs: number;
  /** Whether the current checkout is sparse (then changed folders must be added to it). */
  private sparse = true;
  /** The cone-mode folders of the current sparse checkout. */
  private sparseFolders: string[] = [];

  constructor(options: GitOpsRepositoryOptions) {
    // Before anything else: a URL carrying a token must not reach git, the
    // cache folder name or a log line (the refusal shows it redacted).
    checkGitOpsRepoUrl(options.repoUrl);
    this.redactor = options.redactor ?? new Redactor();
    this.redactor.add(options.token);
    this.logger = redactingLogger(options.logger, this.redactor);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
    this.repoUrl = options.repoUrl;
    this.baseBranch = options.baseBranch ?? 'main';
    this.workDir = cachedCloneDir(
      path.resolve(options.cacheDir),
      options.repoUrl,
    );
    this.author = options.author ?? DEFAULT_GIT_AUTHOR;
    this.env = gitEnvironment(
      options.repoUrl,
      {
        token: options.token,
        username: options.tokenUsername,
      },
      {
        GIT_AUTHOR_NAME: this.author.name,
        GIT_AUTHOR_EMAIL: this.author.email,
        GIT_COMMITTER_NAME: this.author.name,
        GIT_COMMITTER_EMAIL: this.author.email,
      },
    );
  }

  /**
   * Runs the whole branch publication with bounded retries:
   * sync base → build → commit → push (lease) and, when the push is rejected
   * because the base or the branch moved, again from a fresh fetch.
   */
  async publishBranch(
    options: PublishBranchOptions,
  ): Promise<PublishBranchResult> {
    return withCloneLock(
      this.workDir,
      () => this.publishBranchLocked(options),
      { logger: this.logger },
    );
  }

  /** Fetches the base and checks it out (sparse), for read-only uses such as dry runs. */
  async checkoutBase(
    sparsePaths: string[],
  ): Promise<{ workDir: string; baseSha: string }> {
    return withCloneLock(
      this.workDir,
      async () => ({
        workDir: this.workDir,
        baseSha: await this.sync(sparsePaths),
      }),
      { logger: this.logger },
    );
  }

  /**
   * Runs `work` on the cached clone with the base fetched (sparse to
   * `sparsePaths`), under the clone lock, with a git runner bound to the
   * clone (same credentials, timeouts and redaction as every other command).
   */
  async withBase<T>(
    sparsePaths: string[],
    work: (git: {
      baseSha: string;
      /** The checkout (sparse), readable with FsRepoTree while `work` runs. */
      workDir: string;
      run(args: string[]): Promise<string>;
    }) => Promise<T>,
  ): Promise<T> {
    return withCloneLock(
      this.workDir,
      async () => {
        const baseSha = await this.sync(sparsePaths);
        try {
          return await work({
            baseSha,
            workDir: this.workDir,
            run: args => this.run(args),
          });
        } finally {
          await this.markClean();
        }
      },
      { logger: this.logger },
    );
  }

  private async publishBranchLocked(
    options: PublishBranchOptions,
  ): Promise<PublishBranchResult> {
    const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    let branchExistedAtStart: boolean | undefined;
    let lastError: GitOpsError | undefined;
    // Most runs open a new branch: the first attempt skips asking the remote
    // about it and pushes with a lease that requires the branch to be absent.
    // If it exists after all, that push is refused and the loop asks.
    let optimistic = true;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const baseSha = await this.sync(options.sparsePaths);
      const remote = optimistic
        ? undefined
        : await this.remoteBranch(options.branch);
      if (!optimistic) branchExistedAtStart ??= remote !== undefined;
      const built = await options.build({
        workDir: this.workDir,
        baseSha,
        attempt,
      });
      if (!built || built.changes.length === 0) {
        await this.markClean();
        return {
          branch: options.branch,
          baseSha,
          changed: false,
          pushed: false,
          branchExisted:
            branchExistedAtStart ??
            (await this.remoteBranch(options.branch)) !== undefined,
          attempts: attempt,
          files: [],
        };
      }
      const commit = await this.commit(built, options.trailer);
      if (!commit) {
        await this.markClean();
        return {
          branch: options.branch,
          baseSha,
          changed: false,
          pushed: false,
          branchExisted:
            branchExistedAtStart ??
            (await this.remoteBranch(options.branch)) !== undefined,
          attempts: attempt,
          files: [],
        };
      }
      // Checked only when we would push: a no-op run never fails on someone's branch.
      if (remote && !this.isOurs(remote, options.trailer)) {
        throw new GitOpsError(
          this.redactor.redact(
            `branch ${options.branch} on ${this.repoUrl} has commits that were not made for this request ` +
              `(tip ${remote.sha.slice(0, 12)} lacks "${options.trailer}"); refusing to overwrite them. ` +
              `Merge or delete that branch, then run again.`,
          ),
          'foreign-commits',
        );
      }
      if (
        remote &&
        remote.tree === commit.tree &&
        remote.parents.length === 1 &&
        remote.parents[0] === baseSha
      ) {
        // Same content on the same base: the branch is already right; keep its commit.
        this.logger.info(
          `branch ${options.branch} already holds this change on ${baseSha.slice(0, 12)}`,
        );
        await this.markClean();
        return {
          branch: options.branch,
          baseSha,
          commit: remote.sha,
          changed: true,
          pushed: false,
          branchExisted: branchExistedAtStart ?? true,
          attempts: attempt,
          files: commit.files,
        };
      }
      await options.beforePush?.(attempt);
      try {
        const pushed = await this.push(options.branch, remote?.sha);
        await this.markClean();
        return {
          branch: options.branch,
          baseSha,
          commit: commit.sha,
          changed: true,
          pushed: pushed === 'pushed',
          branchExisted: branchExistedAtStart ?? pushed === 'up-to-date',
          attempts: attempt,
          files: commit.files,
        };
      } catch (error) {
        const gitError = error as GitOpsError;
        if (!(await this.baseOrBranchMoved(gitError, baseSha))) throw gitError;
        if (optimistic) {
          optimistic = false;
          // Refused because the branch exists (a re-run): that was discovery,
          // not a failed attempt. Otherwise the base moved: a real retry.
          if ((await this.remoteBranch(options.branch)) !== undefined) {
            attempt--;
            continue;
          }
        }
        lastError = gitError;
        if (attempt < maxAttempts) {
          this.logger.warn(
            `push of ${options.branch} rejected (attempt ${attempt}/${maxAttempts}); ` +
              `fetching and rebuilding on the new base: ${firstLine(gitError.message)}`,
          );
        }
      }
    }
    throw new GitOpsError(
      this.redactor.redact(
        `push of ${options.branch} was rejected ${maxAttempts} times (the base or the branch kept moving): ${
          lastError?.message ?? ''
        }`,
      ),
      'push-rejected',
    );
  }

  /**
   * Whether a failed push is worth a rebuild on a fresh fetch: the lease was
   * stale or the push no fast-forward (the base or the branch moved), or a
   * hook refused it while the base moved meanwhile (a server may demand
   * branches on top of the current base). Any other refusal — a hook on an
   * unchanged base, a protected branch — is a rule, reported once as it is.
   */
  private async baseOrBranchMoved(
    error: GitOpsError,
    baseSha: string,
  ): Promise<boolean> {
    if (error.kind === 'push-rejected') return true;
    if (error.kind !== 'push-refused') return false;
    if (!error.refusal || error.refusal.protectedBranch) return false;
    const listing = await this.run([
      'ls-remote',
      'origin',
      `refs/heads/${this.baseBranch}`,
    ]);
    const current = listing.split(/\s+/)[0];
    return Boolean(current) && current !== baseSha;
  }

  /**
   * Makes the cached clone exist, discards whatever a previous (possibly
   * killed) run left behind, fetches the base and checks it out. Returns the
   * base commit.
   */
  private async sync(sparsePaths: string[]): Promise<string> {
    // Every git process costs tens of milliseconds on a big repository, so a
    // fresh clone skips what it cannot need (fetch, clean); see `npm run bench`.
    const freshClone = await this.ensureClone();
    if (!freshClone) {
      // Leftovers of a killed run: a lock file, a half-made commit, dirty files.
      await fs.rm(path.join(this.workDir, '.git', 'index.lock'), {
        force: true,
      });
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
      if (!(await this.takeCleanMark())) {
        // Only the folders this run reads and writes can matter: files are
        // committed by explicit path, so stray files elsewhere are harmless.
        await this.run([
          'clean',
          '-ffdq',
          '--',
          ...(this.sparse ? this.sparseFolders : ['.']),
        ]);
      }
    }
    return (await this.run(['rev-parse', 'HEAD'])).trim();
  }

  /** Marks the work tree as left clean by a finished run (no `git clean` next time). */
  private async markClean(): Promise<void> {
    await fs.writeFile(path.join(this.workDir, '.git', CLEAN_MARK), '');
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

  /** The remote branch's tip, or undefined when the branch does not exist. */
  private async remoteBranch(
    branch: string,
  ): Promise<RemoteBranchState | undefined> {
    const listing = await this.run([
      'ls-remote',
      'origin',
      `refs/heads/${branch}`,
    ]);
    const sha = listing.split(/\s+/)[0];
    if (!sha) return undefined;
    await this.run([
      'fetch',
      '--no-tags',
      '--depth',
      '1',
      'origin',
      `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
    ]);
    const raw = await this.run(['cat-file', 'commit', sha]);
    const [header, ...rest] = raw.split('\n\n');
    const lines = header.split('\n');
    return {
      sha,
      tree: lines
        .find(l => l.startsWith('tree '))!
        .slice(5)
        .trim(),
      parents: lines
        .filter(l => l.startsWith('parent '))
        .map(l => l.slice(7).trim()),
      message: rest.join('\n\n'),
    };
  }

  private isOurs(remote: RemoteBranchState, trailer: string): boolean {
    return remote.message.split('\n').some(line => line.trim() === trailer);
  }

  /** One commit on a fresh branch from the base; undefined when it would be empty. */
  private async commit(
    built: BuiltCommit,
    trailer: string,
  ): Promise<CommitResult | undefined> {
    const folders = [
      ...new Set(built.changes.map(c => folderOf(c.path)).filter(Boolean)),
    ] as string[];
    const uncovered = folders.filter(
      f => !this.sparseFolders.some(s => f === s || f.startsWith(`${s}/`)),
    );
    if (this.sparse && uncovered.length) {
      await this.run(['sparse-checkout', 'add', '--', ...uncovered]);
      this.sparseFolders.push(...uncovered);
    }
    // The commit is made on the detached base (sync checked it out) and
    // pushed as HEAD:refs/heads/<branch>: no local branch is needed.
    // Written through FsRepoTree: never outside the work tree, never through
    // a symlink the repository holds (a GpuInputError names it).
    const workTree = new FsRepoTree(this.workDir);
    for (const change of built.changes) {
      await workTree.writeFile(change.path, change.content);
    }
    const files = built.changes.map(c => c.path);
    await this.run(['add', '--', ...files]);
    const message = `${built.message.trim()}\n\n${trailer}\n`;
    try {
      await this.run(['commit', '--quiet', '--no-verify', '--file=-'], {
        stdin: message,
      });
    } catch (error) {
      // `git commit` exits 1 with "nothing to commit" when the files equal the base.
      if (/nothing (added )?to commit|no changes added/i.test(String(error))) {
        return undefined;
      }
      throw error;
    }

    const [sha, tree] = (await this.run(['rev-parse', 'HEAD', 'HEAD^{tree}']))
      .trim()
      .split('\n');
    return { sha, tree, files: [...files].sort() };
  }

  /**
   * Pushes our branch. The lease names the sha we saw (or "must not exist"),
   * so a branch someone else changed meanwhile is never overwritten.
   */
  private async push(
    branch: string,
    expectedSha: string | undefined,
  ): Promise<'pushed' | 'up-to-date'> {
    const ref = `refs/heads/${branch}`;
    const output = await this.run([
      'push',
      '--porcelain',
      `--force-with-lease=${ref}:${expectedSha ?? ''}`,
      'origin',
      `HEAD:${ref}`,
    ]);
    // Porcelain flag `=`: the remote branch already is this very commit.
    return /^=\t/m.test(output) ? 'up-to-date' : 'pushed';
  }

  /** Runs git (in the work tree unless told otherwise); failures become GitOpsErrors with the secrets redacted. */
  private async run(
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

function firstLine(text: string): string {
  return text.split('\n').find(l => l.trim()) ?? text;
}
