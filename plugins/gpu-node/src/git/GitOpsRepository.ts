/**
 * The GitOps repository as the publisher sees it: a cached clone per remote
 * (see `cachedClone.ts`) and, on it, one branch per request (see
 * `publishBranch.ts`), each run under the clone lock. Every message that
 * leaves this file is redacted.
 */
import path from 'node:path';
import { PublishLogger, Redactor, redactingLogger } from '../redact';
import { checkGitOpsRepoUrl } from '@gpu-gitops/plugin-gpu-common';
import { gitEnvironment } from './auth';
import { CachedClone, cachedCloneDir } from './cachedClone';
import {
  publishBranchOnClone,
  PublishBranchOptions,
  PublishBranchResult,
} from './publishBranch';
import { DEFAULT_GIT_TIMEOUT_MS } from './runGit';
import { withCloneLock } from './cloneLock';
import type { SparseReach } from './sparseReach';

/** @public */
export interface GitAuthor {
  name: string;
  email: string;
}

export const DEFAULT_GIT_AUTHOR: GitAuthor = {
  name: 'GPU GitOps',
  email: 'gpu-gitops@users.noreply.backstage.io',
};

/** @public */
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

/** @public */
export class GitOpsRepository {
  readonly repoUrl: string;
  readonly baseBranch: string;
  readonly workDir: string;
  private readonly logger: PublishLogger;
  private readonly clone: CachedClone;

  constructor(options: GitOpsRepositoryOptions) {
    // Before anything else: a URL carrying a token must not reach git, the
    // cache folder name or a log line (the refusal shows it redacted).
    checkGitOpsRepoUrl(options.repoUrl);
    const redactor = options.redactor ?? new Redactor();
    redactor.add(options.token);
    this.logger = redactingLogger(options.logger, redactor);
    this.repoUrl = options.repoUrl;
    this.baseBranch = options.baseBranch ?? 'main';
    this.workDir = cachedCloneDir(
      path.resolve(options.cacheDir),
      options.repoUrl,
    );
    const author = options.author ?? DEFAULT_GIT_AUTHOR;
    const env = gitEnvironment(
      options.repoUrl,
      {
        token: options.token,
        username: options.tokenUsername,
      },
      {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_COMMITTER_NAME: author.name,
        GIT_COMMITTER_EMAIL: author.email,
      },
    );
    this.clone = new CachedClone({
      repoUrl: this.repoUrl,
      baseBranch: this.baseBranch,
      workDir: this.workDir,
      env,
      redactor,
      logger: this.logger,
      timeoutMs: options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    });
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
      () => publishBranchOnClone(this.clone, options),
      { logger: this.logger },
    );
  }

  /**
   * Runs `work` on the cached clone with the base fetched (sparse to
   * `sparsePaths`), under the clone lock, with a git runner bound to the
   * clone (same credentials, timeouts and redaction as every other command).
   * Read-only uses (dry runs, previews) read the checkout here, never after
   * the lock is released: another run may reset it meanwhile. `stage` times
   * the fetch as the publishers' stage "Fetch base".
   */
  async withBase<T>(
    sparsePaths: string[],
    work: (git: {
      baseSha: string;
      /** The checkout (sparse), readable with FsRepoTree while `work` runs. */
      workDir: string;
      run(args: string[], options?: { stdin?: string }): Promise<string>;
    }) => Promise<T>,
    stage: <S>(name: string, step: () => Promise<S>) => Promise<S> = (
      _name,
      step,
    ) => step(),
    /** What else the checkout must hold, by what its files reference (`sparseReach.ts`). */
    reach?: SparseReach,
  ): Promise<T> {
    return withCloneLock(
      this.workDir,
      async () => {
        const baseSha = await stage('Fetch base', () =>
          this.clone.sync(sparsePaths, reach),
        );
        try {
          return await work({
            baseSha,
            workDir: this.workDir,
            run: (args, options) => this.clone.run(args, options),
          });
        } finally {
          await this.clone.markClean();
        }
      },
      { logger: this.logger },
    );
  }
}
