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
 * merged or closed (a person decided), that already sit on the base, or
 * that the base's move did not touch (`baseMoveTouches.ts`: nothing the
 * base changed lies in what the branch's render reads or writes) are left
 * alone. The others are re-rendered a few at a time, each on its own clone
 * (a clone is locked while a render uses it). The gpu backend runs this on
 * a schedule; `gpu-gitops update` runs it by hand.
 */
import os from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  compareStrings,
  GPU_BRANCH_PREFIX,
  isGpuInputError,
  parseGpuRequestYaml,
  type ClusterProfile,
  type GpuCatalog,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import type { RequestGuard } from '../changes/buildRequestChange';
import type { GpuPolicy } from '../policy/gpuPolicy';
import { createForge } from '../forges/createForge';
import type { Forge, ForgeKind } from '../forges/types';
import {
  changedPathsOfCommits,
  readObjects,
  type BatchGit,
} from '../git/batchReads';
import { readTrailer } from '../git/branchName';
import { GitAuthor, GitOpsRepository } from '../git/GitOpsRepository';
import { gitTokenUsername } from '../git/resolveGitCredentials';
import {
  layoutPrefix,
  requestPath,
  resolveLayout,
  type LayoutInput,
} from '../layout/layout';
import { runBounded } from '../runBounded';
import { PublishLogger, Redactor, redactingLogger } from '../redact';
import type { ParseCache } from '../repo/parseCache';
import { baseMoveTouches } from './baseMoveTouches';
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
  /**
   * How many branches are re-rendered side by side (default: the cores, at
   * most 4): each render builds kustomizations, a process per core.
   */
  concurrency?: number;
  /** `gpu.policy`, for the team quotas of a cluster's Kueue queues (profile `kueue: true`). */
  policy?: GpuPolicy;
  /**
   * What each file content parsed to before (default: the process's shared
   * cache): the re-renders of a pass parse each file content once.
   */
  parseCache?: ParseCache;
  /**
   * Aborted (the gpu backend's scheduled run reached its timeout): no further
   * branch is re-rendered, the renders under way finish, and the branches
   * left are `stopped` (the next pass takes them).
   */
  signal?: AbortSignal;
}

/** @public */
export type PullRequestUpdateOutcome =
  /** The branch already sits on the current base. */
  | 'up-to-date'
  /** The base moved, but nothing it changed lies in what the branch reads or writes. */
  | 'not-affected'
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
  /** The pass was stopped (its signal aborted) before this branch's turn. */
  | 'stopped'
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

interface BranchInfo {
  branch: string;
  sha: string;
  parents: string[];
  request?: { namespace: string; name: string; path: string };
  /** A release branch: it takes this request out. */
  releases?: boolean;
  requestText?: string;
  baseRequestText?: string;
  /**
   * The request the re-render starts from (the base's for a release, else
   * the branch's), parsed once; undefined when it does not parse (the
   * re-render then says why).
   */
  stored?: GpuRequest;
  /** The base's move since the branch's parent touches what the branch's render reads or writes. */
  touched?: boolean;
}

/**
 * Decides `BranchInfo.touched` (see `baseMoveTouches.ts`). A branch that is
 * not one commit on a base, whose request cannot be read, or whose diffs git
 * cannot give counts as touched: its re-render then says what is wrong.
 */
function isTouchedByBase(
  info: BranchInfo,
  context: {
    layout: LayoutInput;
    clusterFor(name: string | undefined): ClusterProfile;
    /** What each commit changes against its parent. */
    ownPaths: Map<string, string[]>;
    /** What the base changed since each branch parent. */
    baseMoves: Map<string, string[]>;
  },
): boolean {
  const basePaths = context.baseMoves.get(info.parents[0]);
  const branchPaths = context.ownPaths.get(info.sha);
  const stored = info.stored;
  if (info.parents.length !== 1 || !basePaths || !branchPaths || !stored) {
    return true;
  }
  try {
    return baseMoveTouches(
      {
        layout: context.layout,
        cluster: context.clusterFor(stored.spec.cluster).name,
        existingWorkload: Boolean(stored.spec.workload.existing),
        branchPaths,
      },
      basePaths,
    );
  } catch {
    return true;
  }
}

/** What the base changed since each of `parents` (one git process each: a thousand branches share a few parents). */
async function baseMovesSince(
  git: BatchGit,
  parents: Iterable<string>,
  baseSha: string,
): Promise<Map<string, string[]>> {
  const moves = new Map<string, string[]>();
  for (const parent of new Set(parents)) {
    try {
      const out = await git.run([
        'diff-tree',
        '-r',
        '--name-only',
        '--no-renames',
        '-z',
        parent,
        baseSha,
      ]);
      moves.set(parent, out.split('\0').filter(Boolean));
    } catch {
      // Unknown to the clone: its branches count as touched.
    }
  }
  return moves;
}

/** Parents and trailer of a commit's raw text (`git cat-file commit`). */
function parseCommit(raw: string) {
  const [header, ...message] = raw.split('\n\n');
  const parents = header
    .split('\n')
    .filter(l => l.startsWith('parent '))
    .map(l => l.slice('parent '.length).trim());
  return { parents, trailer: readTrailer(message.join('\n\n')) };
}

/** The base checkout `GitOpsRepository.withBase` hands its work. */
type BaseCheckout = Parameters<Parameters<GitOpsRepository['withBase']>[1]>[0];

/**
 * Reads every request branch: its commit, its request next to the base's,
 * and whether the base's move touched it. Each kind of read is one git
 * process for all branches.
 */
async function readRequestBranches(
  repository: GitOpsRepository,
  layout: LayoutInput,
  clusterFor: (name: string | undefined) => ClusterProfile,
): Promise<{ baseSha: string; branches: BranchInfo[] }> {
  const resolved = resolveLayout(layout);
  const requestsFolder = layoutPrefix(
    resolved,
    'request',
    { name: 'n' },
    'namespace',
  ).replace(/\/+$/, '');
  return repository.withBase([requestsFolder || ''], async git => {
    const heads = await fetchRequestHeads(git);
    if (heads.length === 0) return { baseSha: git.baseSha, branches: [] };
    const branches = await readBranchCommits(git, heads, resolved);
    await nextTurn();
    const ours = branches.filter(b => b.request);
    await readRequestTexts(git, ours);
    await markTouchedByBase(git, ours, { layout: resolved, clusterFor });
    return { baseSha: git.baseSha, branches };
  });
}

/** The product's branches on the remote, fetched with their parents. */
async function fetchRequestHeads(
  git: BaseCheckout,
): Promise<{ sha: string; branch: string }[]> {
  const listing = await git.run([
    'ls-remote',
    'origin',
    `refs/heads/${GPU_BRANCH_PREFIX}*`,
  ]);
  const heads = listing
    .split('\n')
    .map(line => line.split(/\s+/))
    .filter(([sha, ref]) => sha && ref?.startsWith('refs/heads/'))
    .map(([sha, ref]) => ({ sha, branch: ref.slice('refs/heads/'.length) }));
  if (heads.length === 0) return heads;
  // Depth 2: each branch's parent too, the base it was rendered on, to
  // diff against the current base.
  await git.run([
    'fetch',
    '--no-tags',
    '--depth',
    '2',
    'origin',
    ...heads.map(
      h => `+refs/heads/${h.branch}:refs/remotes/origin/${h.branch}`,
    ),
  ]);
  return heads;
}

/** Each head's parents and the request its commit's trailer names. */
async function readBranchCommits(
  git: BaseCheckout,
  heads: { sha: string; branch: string }[],
  layout: LayoutInput,
): Promise<BranchInfo[]> {
  const commits = await readObjects(
    git,
    heads.map(h => h.sha),
  );
  return heads.map((head, i) => {
    const { parents, trailer } = parseCommit(commits[i] ?? '');
    const info: BranchInfo = { ...head, parents };
    if (trailer) {
      const { namespace, name } = trailer;
      const file = requestPath(layout, namespace, name);
      info.request = { namespace, name, path: file };
      if (trailer.kind === 'release') info.releases = true;
    }
    return info;
  });
}

/** Sets each branch's request text, the base's and (unless it releases) its own, and the request its re-render starts from. */
async function readRequestTexts(
  git: BaseCheckout,
  ours: BranchInfo[],
): Promise<void> {
  const texts = await readObjects(
    git,
    ours.flatMap(b => [
      `${git.baseSha}:${b.request!.path}`,
      `${b.sha}:${b.request!.path}`,
    ]),
  );
  ours.forEach((info, i) => {
    info.baseRequestText = texts[2 * i];
    if (!info.releases) info.requestText = texts[2 * i + 1];
    const text = info.releases ? info.baseRequestText : info.requestText;
    try {
      info.stored = text === undefined ? undefined : parseGpuRequestYaml(text);
    } catch {
      // Left undefined: its re-render says what is wrong.
    }
  });
}

/** Sets `touched` on each branch that does not sit on the current base. */
async function markTouchedByBase(
  git: BaseCheckout,
  ours: BranchInfo[],
  where: {
    layout: LayoutInput;
    clusterFor: (name: string | undefined) => ClusterProfile;
  },
): Promise<void> {
  const moved = ours.filter(
    b => !(b.parents.length === 1 && b.parents[0] === git.baseSha),
  );
  const context = {
    ...where,
    ownPaths: await changedPathsOfCommits(
      git,
      moved.map(b => b.sha),
    ),
    baseMoves: await baseMovesSince(
      git,
      moved.flatMap(b => b.parents.slice(0, 1)),
      git.baseSha,
    ),
  };
  for (const [i, info] of moved.entries()) {
    info.touched = isTouchedByBase(info, context);
    // A thousand branches: let the backend answer its requests meanwhile.
    if (i % 25 === 24) await nextTurn();
  }
}

/** The default of `UpdateOpenPullRequestsOptions.concurrency`. */
const RENDERS_IN_FLIGHT = Math.max(1, Math.min(4, os.availableParallelism()));

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
    options.clusterFor,
  );

  const settled = branches.map(info => settledOutcome(info, baseSha));
  const toRender = oneClusterAfterAnother(
    branches.filter((_, i) => settled[i] === undefined),
    options.clusterFor,
  );
  const limit = options.concurrency ?? RENDERS_IN_FLIGHT;
  // Each render in flight has its own clone, apart from the reader's: the
  // reader checks out the requests folder only, and a render's clone keeps
  // its checkout of the workload folders from one pass to the next (on a
  // 100k-workload repository checking them out again took half a minute).
  const freeSlots = Array.from({ length: limit }, (_, i) => i).reverse();
  const moved = `Updated by GPU GitOps: ${baseBranch} moved to ${baseSha.slice(0, 12)}, so this pull request was`;
  const rendered = await runBounded(
    toRender.map(info => async () => {
      if (options.signal?.aborted) return outcomeOf(info, 'stopped', {});
      const slot = freeSlots.pop()!;
      try {
        return await rerenderBranch(info, {
          ...options,
          baseBranch,
          forge,
          tokenUsername,
          redactor,
          logger,
          moved,
          cacheDir: path.join(cacheDir, `render-${slot}`),
        });
      } finally {
        freeSlots.push(slot);
        await nextTurn();
      }
    }),
    limit,
  );
  const byBranch = new Map(toRender.map((info, i) => [info, rendered[i]]));
  return branches.map(
    (info, i) =>
      byBranch.get(info) ?? outcomeOf(info, settled[i] ?? 'failed', {}),
  );
}

/**
 * The branches to re-render, those of one cluster one after another (else
 * in their order). Each re-render reads its cluster's whole state, and the
 * re-renders of one cluster on one base share that read
 * (`repo/recentRepoStates.ts`, which keeps the last few): taken in the
 * order the forge lists them, the scale bench's 50 re-renders cycled
 * through its 10 clusters, and each read its cluster's state again.
 */
function oneClusterAfterAnother(
  branches: BranchInfo[],
  clusterFor: (name: string | undefined) => ClusterProfile,
): BranchInfo[] {
  const clusterOf = (info: BranchInfo): string => {
    if (!info.stored) return ''; // its re-render says what is wrong
    try {
      return clusterFor(info.stored.spec.cluster).name;
    } catch {
      return '';
    }
  };
  return branches
    .map((info, order) => ({ info, order, cluster: clusterOf(info) }))
    .sort((a, b) => compareStrings(a.cluster, b.cluster) || a.order - b.order)
    .map(({ info }) => info);
}

function outcomeOf(
  info: BranchInfo,
  outcome: PullRequestUpdateOutcome,
  more: Partial<PullRequestUpdate>,
): PullRequestUpdate {
  const id = info.request && `${info.request.namespace}/${info.request.name}`;
  return {
    branch: info.branch,
    ...(id ? { request: id } : {}),
    outcome,
    ...more,
  };
}

/** The outcome of a branch that needs no re-render, or undefined. */
function settledOutcome(
  info: BranchInfo,
  baseSha: string,
): PullRequestUpdateOutcome | undefined {
  if (!info.request || (!info.releases && info.requestText === undefined)) {
    return 'not-ours';
  }
  if (info.parents.length === 1 && info.parents[0] === baseSha) {
    return 'up-to-date';
  }
  // A request branch is merged when the base holds its request; a release
  // branch when the base no longer does.
  if (
    info.releases
      ? info.baseRequestText === undefined
      : info.baseRequestText === info.requestText
  ) {
    return 'merged';
  }
  return info.touched ? undefined : 'not-affected';
}

interface RenderContext extends UpdateOpenPullRequestsOptions {
  baseBranch: string;
  forge: Forge;
  tokenUsername?: string;
  redactor: Redactor;
  logger: PublishLogger;
  cacheDir: string;
  /** The note's opening: where the base moved. */
  moved: string;
}

/** Re-renders one open branch on the current base (a release is re-built). */
async function rerenderBranch(
  info: BranchInfo,
  context: RenderContext,
): Promise<PullRequestUpdate> {
  const { forge, redactor, logger, moved } = context;
  const done = (
    outcome: PullRequestUpdateOutcome,
    more: Partial<PullRequestUpdate> = {},
  ) => {
    logger.info(`${info.branch}: ${outcome}`);
    return outcomeOf(info, outcome, more);
  };
  const publishing = {
    repoUrl: context.repoUrl,
    baseBranch: context.baseBranch,
    forge,
    token: context.token,
    tokenUsername: context.tokenUsername,
    author: context.author,
    layout: context.layout,
    cacheDir: context.cacheDir,
    timeoutMs: context.timeoutMs,
    redactor,
    logger,
    parseCache: context.parseCache,
    // The open pull request's branch: its first push leases its tip.
    branchExists: true,
  };
  try {
    const open = await forge.findOpenPullRequest({
      repoUrl: context.repoUrl,
      baseBranch: context.baseBranch,
      headBranch: info.branch,
    });
    if (!open) return outcomeOf(info, 'closed', {});
    if (info.releases) {
      const stored = parseGpuRequestYaml(info.baseRequestText!);
      const result = await publishGpuRelease({
        ...publishing,
        request: info.request!,
        clusterProfile: context.clusterFor,
        catalog: context.catalogFor(stored),
        policy: context.policy,
        reason: `${moved} re-built from the request the new base holds.`,
      });
      return done('updated', { url: result.url });
    }
    const request = parseGpuRequestYaml(info.requestText!);
    const result = await publishGpuRequest({
      ...publishing,
      request,
      cluster: context.clusterFor(request.spec.cluster),
      catalog: context.catalogFor(request),
      guard: context.guardFor?.(request),
      policy: context.policy,
      updateNote: `${moved} re-rendered from its request on the new base.`,
    });
    return result.changed
      ? done('updated', { url: result.url })
      : done('merged');
  } catch (error) {
    const message = redactor.redact((error as Error).message ?? String(error));
    logger.warn(`${info.branch} was not updated: ${message}`);
    return outcomeOf(info, isGpuInputError(error) ? 'refused' : 'failed', {
      detail: message,
    });
  }
}
