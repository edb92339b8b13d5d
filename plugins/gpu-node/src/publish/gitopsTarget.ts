/**
 * What every publisher (a request, a release) needs to reach the GitOps
 * repository and its forge, and the two steps they share: the cached
 * repository with its credentials, and opening (or updating) the pull
 * request. One place, so a release goes out exactly like a request.
 */
import { gitOpsCacheDirs } from '../config/cacheDirs';
import { createForge } from '../forges/createForge';
import type { RetryOptions } from '../forges/http';
import type { Forge, ForgeKind, PullRequestResult } from '../forges/types';
import { GitAuthor, GitOpsRepository } from '../git/GitOpsRepository';
import type {
  PublishBranchOptions,
  PublishBranchResult,
} from '../git/publishBranch';
import { isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { redactingLogger, Redactor, type PublishLogger } from '../redact';
import type { ParseCache } from '../repo/parseCache';
import { runStage, type StageTiming } from './stages';
import type { SparseReach } from '../git/sparseReach';

/** @public */
export interface GitOpsTargetOptions {
  /** GitOps repository: https URL, file:// URL or a local path. Never with credentials. */
  repoUrl: string;
  baseBranch?: string;
  /** A forge kind (built with `token`) or a ready Forge. Default `local`. */
  forge?: ForgeKind | Forge;
  /** Forge API root (GitHub Enterprise, self-hosted GitLab/Gitea). */
  forgeApiBaseUrl?: string;
  /** Used for git over HTTP(S) (auth header) and the forge API. */
  token?: string;
  /** Basic-auth user for git (`x-access-token` default; GitLab `oauth2`). */
  tokenUsername?: string;
  author?: GitAuthor;
  draft?: boolean;
  labels?: string[];
  reviewers?: string[];
  /** Where cached clones live (default: the publishers' folder of the one cache root, `gitOpsCacheDirs().publish`). */
  cacheDir?: string;
  logger?: PublishLogger;
  /** Push attempts when the base moves (default 3). */
  maxPushAttempts?: number;
  /** Forge HTTP retries (5xx); injectable backoff. */
  forgeRetry?: RetryOptions;
  /** Limit of each git command and forge request (default 60 s): a stalled remote ends the run. */
  timeoutMs?: number;
  /** Extra secrets to redact (the token is always registered). */
  redactor?: Redactor;
  /** Test seam / embedding hook: runs right before each push attempt. */
  beforePush?: (attempt: number) => Promise<void>;
  /**
   * The branch is known to exist (an open pull request's, which the updater
   * re-renders): the first push leases the branch's tip, asked of the
   * remote, rather than pushing as if the branch were new and being refused.
   */
  branchExists?: boolean;
  /** What each file content parsed to before (default: the process's shared cache; see `ParseCache`). */
  parseCache?: ParseCache;
}

/** The one default cache rule (config/cacheDirs.ts), as the scaffolder actions use it. */
export const DEFAULT_CACHE_DIR = gitOpsCacheDirs().publish;

export function forgeKindOf(forge: GitOpsTargetOptions['forge']): ForgeKind {
  if (forge === undefined) return 'local';
  return typeof forge === 'string' ? forge : forge.kind;
}

export function openRepository(
  options: GitOpsTargetOptions,
  redactor: Redactor,
  logger: PublishLogger,
): GitOpsRepository {
  return new GitOpsRepository({
    repoUrl: options.repoUrl,
    baseBranch: options.baseBranch,
    cacheDir: options.cacheDir ?? DEFAULT_CACHE_DIR,
    token: options.token,
    // GitLab wants `oauth2` as the basic-auth user for OAuth / PAT tokens.
    tokenUsername:
      options.tokenUsername ??
      (forgeKindOf(options.forge) === 'gitlab' ? 'oauth2' : undefined),
    author: options.author,
    redactor,
    logger,
    timeoutMs: options.timeoutMs,
  });
}

/** Opens the pull request of a pushed branch, or updates the one it has. */
export async function openPullRequest(
  options: GitOpsTargetOptions,
  redactor: Redactor,
  pr: {
    baseBranch: string;
    branch: string;
    title: string;
    body: string;
    branchExisted: boolean;
  },
): Promise<PullRequestResult> {
  const forge =
    typeof options.forge === 'object'
      ? options.forge
      : createForge(options.forge ?? 'local', {
          token: options.token,
          apiBaseUrl: options.forgeApiBaseUrl,
          retry: options.forgeRetry,
          redactor,
          timeoutMs: options.timeoutMs,
        });
  return forge.createOrUpdatePullRequest({
    repoUrl: options.repoUrl,
    baseBranch: pr.baseBranch,
    headBranch: pr.branch,
    title: pr.title,
    body: pr.body,
    draft: options.draft,
    labels: options.labels,
    reviewers: options.reviewers,
    headBranchExisted: pr.branchExisted,
  });
}

/**
 * The dry run of every publish: `build` reads the fetched base under the
 * clone lock (once it is released, another run may reset the checkout), the
 * fetch timed as the stage "Fetch base".
 */
export function dryRunOnBase<T>(
  logger: PublishLogger,
  stages: StageTiming[],
  repository: GitOpsRepository,
  sparsePaths: string[],
  build: (base: { workDir: string; baseSha: string }) => Promise<T>,
  sparseReach?: SparseReach,
): Promise<T> {
  return repository.withBase(
    sparsePaths,
    ({ workDir, baseSha }) => build({ workDir, baseSha }),
    (name, step) => runStage(logger, stages, name, step),
    sparseReach,
  );
}

/**
 * The push stage of every publish: commits what `build` makes on a fresh
 * base and pushes the branch, retried up to the options' attempts (see
 * `GitOpsRepository.publishBranch`).
 */
export function pushStage(
  logger: PublishLogger,
  stages: StageTiming[],
  options: Pick<
    GitOpsTargetOptions,
    'maxPushAttempts' | 'beforePush' | 'branchExists'
  >,
  repository: GitOpsRepository,
  push: Omit<PublishBranchOptions, 'maxAttempts' | 'beforePush' | 'stage'>,
): Promise<PublishBranchResult> {
  return runStage(logger, stages, `Commit and push ${push.branch}`, () =>
    repository.publishBranch({
      stage: (name, step) => runStage(logger, stages, name, step),
      ...push,
      maxAttempts: options.maxPushAttempts,
      beforePush: options.beforePush,
      branchExists: options.branchExists,
    }),
  );
}

/**
 * The last stage of every publish: opens (or updates) the pushed branch's
 * pull request, and logs and returns its URL redacted.
 */
export async function pullRequestStage(
  logger: PublishLogger,
  stages: StageTiming[],
  options: GitOpsTargetOptions,
  redactor: Redactor,
  pr: Parameters<typeof openPullRequest>[2],
): Promise<{ url: string; number?: number; updated: boolean }> {
  const opened = await runStage(
    logger,
    stages,
    `Open or update the ${forgeKindOf(options.forge)} pull request`,
    () => openPullRequest(options, redactor, pr),
  );
  const url = redactor.redact(opened.url);
  logger.info(`${opened.updated ? 'updated' : 'opened'} ${url}`);
  return { url, number: opened.number, updated: opened.updated };
}

/**
 * Runs one publish with every secret of `options` redacted from its log and
 * its errors. Input errors (field paths and rules the caller maps to exit
 * code 2 or an InputError) keep their class; anything else is logged as
 * `<what> failed` first. `explain` may replace an error with a better one
 * (still redacted).
 */
export async function publishRedacted<T>(
  options: Pick<GitOpsTargetOptions, 'redactor' | 'token' | 'logger'>,
  what: string,
  publish: (redactor: Redactor, logger: PublishLogger) => Promise<T>,
  explain?: (
    error: unknown,
    redactor: Redactor,
    logger: PublishLogger,
  ) => Promise<Error | undefined>,
): Promise<T> {
  const redactor = options.redactor ?? new Redactor();
  redactor.add(options.token);
  const logger = redactingLogger(options.logger, redactor);
  try {
    return await publish(redactor, logger);
  } catch (error) {
    const better = explain && (await explain(error, redactor, logger));
    if (better) throw redactor.redactError(better);
    if (isGpuInputError(error)) throw redactor.redactError(error);
    const redacted = redactor.redactError(error);
    logger.warn(`${what} failed: ${redacted.message}`);
    throw redacted;
  }
}
