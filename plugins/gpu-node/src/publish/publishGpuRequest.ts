/**
 * The publisher: one GPU request in, one branch + pull request out.
 *
 *   clone/fetch → buildRequestChange (read, plan, guard, existing
 *     workload, manifests, apply) → (empty? stop) → commit + push (rebuilt,
 *     guard included, on a moved base) → forge PR
 *
 * Used by the CLI `pr` command and the `gpu:gitops:pull-request` action.
 * Idempotent: the branch is `gpu/<namespace>-<name>`, a re-run updates the
 * same branch and PR. Staleness is resolved by re-running: each run rebuilds
 * the change on the current base, so a branch that no longer merges cleanly
 * becomes mergeable again.
 *
 * The token is registered with a Redactor before anything runs; every log
 * line, error, and the title/body pass through it.
 */
import type { GpuPolicy } from '../policy/gpuPolicy';
import {
  ClusterProfile,
  findModel,
  GpuCatalog,
  GpuRequest,
  parseGpuRequest,
  Plan,
  poolNodeLabel,
} from '@gpu-gitops/plugin-gpu-common';
import {
  buildRequestChange,
  type RequestChange,
  type RequestGuard,
} from '../changes/buildRequestChange';
import { requestBranchName, requestTrailer } from '../git/branchName';
import type { LayoutInput } from '../layout/layout';
import {
  PullRequestTemplates,
  renderPullRequest,
} from '../pr/renderPullRequest';
import { GitCheckoutTree } from '../repo/gitCheckoutTree';
import type { PublishLogger, Redactor } from '../redact';
import { publishRedacted, type GitOpsTargetOptions } from './gitopsTarget';
import { publishChange, type PublishedChange } from './publishChange';
import { sparseFoldersFor } from './sparseFolders';
import { clusterReach } from './clusterReach';

/** @public */
export interface PublishGpuRequestOptions extends GitOpsTargetOptions {
  request: GpuRequest;
  cluster: ClusterProfile;
  catalog: GpuCatalog;
  layout?: LayoutInput;
  templates?: PullRequestTemplates;
  /** Compute plan, change set, diff, title and body; push nothing, open nothing. */
  dryRun?: boolean;
  /**
   * The caller's rules (policy, quota), checked against every plan before
   * anything is built from it, also when a moved base forces a rebuild.
   */
  guard?: RequestGuard;
  /** `gpu.policy`, for the team quotas of a cluster's Kueue queues (profile `kueue: true`). */
  policy?: GpuPolicy;
  /** Said at the top of the PR body (e.g. why the product updated it). */
  updateNote?: string;
}

/** @public */
export interface RequestPublishFacts {
  plan: Plan;
}

/**
 * The request's pull request; `changed` is false when the repository holds
 * exactly this request already.
 *
 * @public
 */
export type PublishGpuRequestResult = PublishedChange<RequestPublishFacts>;

/** @public */
export async function publishGpuRequest(
  options: PublishGpuRequestOptions,
): Promise<PublishGpuRequestResult> {
  return publishRedacted(options, 'publish', (redactor, logger) =>
    publish(options, redactor, logger),
  );
}

function publish(
  options: PublishGpuRequestOptions,
  redactor: Redactor,
  logger: PublishLogger,
): Promise<PublishGpuRequestResult> {
  // Re-validate: callers may hand us objects that never went through the schema.
  const request = parseGpuRequest(options.request);
  const { namespace, name } = request.metadata;
  const cluster = options.cluster;
  return publishChange(options, redactor, logger, {
    branch: requestBranchName(namespace, name),
    trailer: requestTrailer(namespace, name),
    sparsePaths: sparseFoldersFor(options.layout, cluster.name, request),
    sparseReach: clusterReach(options.layout, cluster.name),
    dryRun: options.dryRun ?? false,
    heldAlready: () =>
      `the repository already holds ${namespace}/${name}: no branch, no pull request`,
    build: async ({ workDir, stage, kustomize }) => {
      const change = await buildRequestChange({
        tree: new GitCheckoutTree(workDir),
        dir: workDir,
        parseCache: options.parseCache,
        request,
        cluster,
        catalog: options.catalog,
        layout: options.layout,
        guard: options.guard,
        policy: options.policy,
        onSkipped: (file, reason) => logger.warn(`skipped ${file}: ${reason}`),
        stage,
        kustomize,
      });
      for (const { root, reason } of change.verification?.unverifiable ?? []) {
        logger.warn(
          `kustomize build ${root} fails on the base too, so the change there is not verified: ${reason}`,
        );
      }
      return {
        changeSet: change.changeSet,
        described: describeRequest(options, change, redactor),
      };
    },
  });
}

/** The pull request of a request change: title, body, commit message and its plan. */
function describeRequest(
  options: PublishGpuRequestOptions,
  change: RequestChange,
  redactor: Redactor,
) {
  const { plan, changeSet } = change;
  const rendered = renderPullRequest({
    plan,
    files: changeSet.changes,
    model: findModel(options.catalog, plan.pool.gpuModel),
    templates: options.templates,
    redactor,
    existing: change.existing && {
      container: change.existing.target.container,
      current: change.existing.current,
      merged: change.existing.merged,
    },
    updateNote: options.updateNote,
    poolLabel: poolNodeLabel(options.cluster),
  });
  return {
    plan,
    title: rendered.title,
    body: rendered.body,
    commitMessage: rendered.commitMessage,
  };
}
