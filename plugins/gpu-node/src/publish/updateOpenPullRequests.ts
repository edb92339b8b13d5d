/**
 * Brings the product's open pull requests up to date whenever their base
 * moved, as Renovate does for its own: each request branch whose commit does
 * not sit on the current base is re-rendered from the request it carries, on
 * the current base, and pushed to the same branch (with a lease) with a note
 * in the pull request. Not only after a conflict: a branch that still merges
 * cleanly may no longer mean the right thing (a pool ledger, a new pool of
 * the same name), and the re-render is what makes it right. A release
 * branch is re-built from the request the base holds (its pools' ledgers
 * may have moved), and counts as merged once the base no longer holds it.
 *
 * Branches that are not the product's (no trailer), whose pull request was
 * merged or closed (a person decided), or that already sit on the base are
 * left alone. The gpu backend runs this on a schedule; `gpu-gitops update`
 * runs it by hand.
 */
import path from 'node:path';
import type { GpuPolicy } from '../policy/gpuPolicy';
import {
  isGpuInputError,
  parseGpuRequestYaml,
  type ClusterProfile,
  type GpuCatalog,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import type { RequestGuard } from '../changes/buildRequestChange';
import { createForge } from '../forges/createForge';
import type { Forge, ForgeKind } from '../forges/types';
import { readTrailer } from '../git/branchName';
import { GitAuthor, GitOpsRepository } from '../git/GitOpsRepository';
import { gitTokenUsername } from '../git/resolveGitCredentials';
import {
  layoutPrefix,
  requestPath,
  resolveLayout,
  type LayoutInput,
} from '../layout/layout';
import { PublishLogger, Redactor, redactingLogger } from '../redact';
import { DEFAULT_CACHE_DIR } from './gitopsTarget';
import { publishGpuRelease } from './publishGpuRelease';
import { publishGpuRequest } from './publishGpuRequest';

/** @public */
export interface UpdateOpenPullRequestsOptions {
  repoUrl: string;
  baseBranch?: string;
  forge?: ForgeKind | Forge;
  forgeApiBaseUrl?: string;
  token?: string;
  tokenUsername?: string;
  author?: GitAuthor;
  layout?: LayoutInput;
  cacheDir?: string;
  timeoutMs?: number;
  logger?: PublishLogger;
  redactor?: Redactor;
  /** The cluster profile of a stored request (its `spec.cluster`). */
  clusterFor(name: string | undefined): ClusterProfile;
  /** The catalog a request is planned with (its owner's allowed models). */
  catalogFor(request: GpuRequest): GpuCatalog;
  /** The rules each re-render is checked against (policy, quota). */
  guardFor?(request: GpuRequest): RequestGuard | undefined;
  /** `gpu.policy`, for the team quotas of a cluster's Kueue queues (profile `kueue: true`). */
  policy?: GpuPolicy;
}

/** @public */
export type PullRequestUpdateOutcome =
  /** The branch already sits on the current base. */
  | 'up-to-date'
  /** Re-rendered on the current base and pushed. */
  | 'updated'
  /** The base already holds the request: nothing to do. */
  | 'merged'
  /** No open pull request for the branch: left as it is. */
  | 'closed'
  /** The branch's last commit is not the product's: never overwritten. */
  | 'not-ours'
  /** The request no longer passes (policy, quota, repository): left as it is. */
  | 'refused'
  | 'failed';

/** @public */
export interface PullRequestUpdate {
  branch: string;
  /** `<namespace>/<name>` of the request the branch carries. */
  request?: string;
  outcome: PullRequestUpdateOutcome;
  detail?: string;
  url?: string;
}

const BRANCH_PREFIX = 'gpu/';

interface BranchInfo {
  branch: string;
  sha: string;
  parents: string[];
  request?: { namespace: string; name: string; path: string };
  /** A release branch: it takes this request out. */
  releases?: boolean;
  requestText?: string;
  baseRequestText?: string;
}

/** Reads every request branch: its commit, and its request next to the base's. */
async function readRequestBranches(
  repository: GitOpsRepository,
  layout: LayoutInput,
): Promise<{ baseSha: string; branches: BranchInfo[] }> {
  const resolved = resolveLayout(layout);
  const requestsFolder = layoutPrefix(
    resolved,
    'request',
    { name: 'n' },
    'namespace',
  ).replace(/\/+$/, '');
  return repository.withBase([requestsFolder || ''], async git => {
    const listing = await git.run([
      'ls-remote',
      'origin',
      `refs/heads/${BRANCH_PREFIX}*`,
    ]);
    const heads = listing
      .split('\n')
      .map(line => line.split(/\s+/))
      .filter(([sha, ref]) => sha && ref?.startsWith('refs/heads/'))
      .map(([sha, ref]) => ({ sha, branch: ref.slice('refs/heads/'.length) }));
    if (heads.length === 0) return { baseSha: git.baseSha, branches: [] };
    await git.run([
      'fetch',
      '--no-tags',
      '--depth',
      '1',
      'origin',
      ...heads.map(
        h => `+refs/heads/${h.branch}:refs/remotes/origin/${h.branch}`,
      ),
    ]);
    const show = (ref: string, file: string) =>
      git.run(['show', `${ref}:${file}`]).catch(() => undefined);
    const branches: BranchInfo[] = [];
    for (const head of heads) {
      const raw = await git.run(['cat-file', 'commit', head.sha]);
      const [header, ...message] = raw.split('\n\n');
      const parents = header
        .split('\n')
        .filter(l => l.startsWith('parent '))
        .map(l => l.slice('parent '.length).trim());
      const trailer = readTrailer(message.join('\n\n'));
      const info: BranchInfo = { ...head, parents };
      if (trailer) {
        const { namespace, name } = trailer;
        const file = requestPath(resolved, namespace, name);
        info.request = { namespace, name, path: file };
        info.baseRequestText = await show(git.baseSha, file);
        if (trailer.kind === 'release') info.releases = true;
        else info.requestText = await show(head.sha, file);
      }
      branches.push(info);
    }
    return { baseSha: git.baseSha, branches };
  });
}

/** @public */
export async function updateOpenPullRequests(
  options: UpdateOpenPullRequestsOptions,
): Promise<PullRequestUpdate[]> {
  const redactor = options.redactor ?? new Redactor();
  redactor.add(options.token);
  const logger = redactingLogger(options.logger, redactor);
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const baseBranch = options.baseBranch ?? 'main';
  const forge =
    typeof options.forge === 'object'
      ? options.forge
      : createForge(options.forge ?? 'local', {
          token: options.token,
          apiBaseUrl: options.forgeApiBaseUrl,
          redactor,
          timeoutMs: options.timeoutMs,
        });
  // The git user paired with the token, as the publisher pairs it.
  const tokenUsername =
    options.tokenUsername ??
    gitTokenUsername(forge.kind, { token: options.token, source: 'input' });
  const repository = new GitOpsRepository({
    repoUrl: options.repoUrl,
    baseBranch,
    cacheDir: path.resolve(cacheDir),
    token: options.token,
    tokenUsername,
    author: options.author,
    redactor,
    logger,
    timeoutMs: options.timeoutMs,
  });
  const { baseSha, branches } = await readRequestBranches(
    repository,
    options.layout,
  );

  const updates: PullRequestUpdate[] = [];
  for (const info of branches) {
    const id = info.request && `${info.request.namespace}/${info.request.name}`;
    const done = (
      outcome: PullRequestUpdateOutcome,
      more: Partial<PullRequestUpdate> = {},
    ) =>
      updates.push({
        branch: info.branch,
        ...(id ? { request: id } : {}),
        outcome,
        ...more,
      });
    if (!info.request || (!info.releases && info.requestText === undefined)) {
      done('not-ours');
      continue;
    }
    if (info.parents.length === 1 && info.parents[0] === baseSha) {
      done('up-to-date');
      continue;
    }
    // A request branch is merged when the base holds its request; a release
    // branch when the base no longer does.
    if (
      info.releases
        ? info.baseRequestText === undefined
        : info.baseRequestText === info.requestText
    ) {
      done('merged');
      continue;
    }
    try {
      const open = await forge.findOpenPullRequest({
        repoUrl: options.repoUrl,
        baseBranch,
        headBranch: info.branch,
      });
      if (!open) {
        done('closed');
        continue;
      }
      const moved = `Updated by GPU GitOps: ${baseBranch} moved to ${baseSha.slice(0, 12)}, so this pull request was`;
      if (info.releases) {
        const stored = parseGpuRequestYaml(info.baseRequestText!);
        const result = await publishGpuRelease({
          request: info.request,
          clusterProfile: options.clusterFor,
          catalog: options.catalogFor(stored),
          policy: options.policy,
          reason: `${moved} re-built from the request the new base holds.`,
          repoUrl: options.repoUrl,
          baseBranch,
          forge,
          token: options.token,
          tokenUsername,
          author: options.author,
          layout: options.layout,
          cacheDir,
          timeoutMs: options.timeoutMs,
          redactor,
          logger,
        });
        done('updated', { url: result.url });
        logger.info(`${info.branch}: updated`);
        continue;
      }
      const request = parseGpuRequestYaml(info.requestText!);
      const result = await publishGpuRequest({
        request,
        cluster: options.clusterFor(request.spec.cluster),
        catalog: options.catalogFor(request),
        guard: options.guardFor?.(request),
        policy: options.policy,
        repoUrl: options.repoUrl,
        baseBranch,
        forge,
        token: options.token,
        tokenUsername,
        author: options.author,
        layout: options.layout,
        cacheDir,
        timeoutMs: options.timeoutMs,
        redactor,
        logger,
        updateNote: `${moved} re-rendered from its request on the new base.`,
      });
      if (!result.changed) done('merged');
      else done('updated', { url: result.url });
      logger.info(`${info.branch}: ${updates[updates.length - 1].outcome}`);
    } catch (error) {
      const message = redactor.redact(
        (error as Error).message ?? String(error),
      );
      done(isGpuInputError(error) ? 'refused' : 'failed', { detail: message });
      logger.warn(`${info.branch} was not updated: ${message}`);
    }
  }
  return updates;
}
