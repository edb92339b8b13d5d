/**
 * The release publisher: one request in the repository, one branch + pull
 * request that takes it out.
 *
 *   clone/fetch → buildReleaseChange (record, state, release plan, apply,
 *     verify) → commit + push (rebuilt on a moved base) → forge PR
 *
 * Used by the CLI `release` command, the `gpu:gitops:release` action and
 * the expiry scheduler. Idempotent: the branch is `gpu/release-<namespace>-<name>`,
 * a re-run updates the same branch and PR. A request the base does not hold
 * (not merged yet, or released already) is a GpuInputError saying so.
 */
import type { GpuPolicy } from '../policy/gpuPolicy';
import {
  isGpuInputError,
  requestNotHeld,
  type ClusterProfile,
  type GpuCatalog,
  type ReleaseLeftObject,
  type ReleasePlan,
} from '@gpu-gitops/plugin-gpu-common';
import {
  buildReleaseChange,
  type RequestRef,
} from '../changes/release/buildReleaseChange';
import {
  releaseBranchName,
  releaseTrailer,
  requestBranchName,
} from '../git/branchName';
import type { LayoutInput } from '../layout/layout';
import { renderReleasePullRequest } from '../pr/renderReleasePullRequest';
import { GitCheckoutTree } from '../repo/gitCheckoutTree';
import type { PublishLogger, Redactor } from '../redact';
import {
  openRepository,
  publishRedacted,
  type GitOpsTargetOptions,
} from './gitopsTarget';
import { publishChange, type PublishedChange } from './publishChange';
import { WHOLE_REPOSITORY } from './sparseFolders';

/** @public */
export interface PublishGpuReleaseOptions extends GitOpsTargetOptions {
  request: RequestRef;
  /** The profile of the cluster the stored request names (its `spec.cluster`; undefined when it names none). */
  clusterProfile: (name: string | undefined) => ClusterProfile;
  catalog: GpuCatalog;
  layout?: LayoutInput;
  /** `gpu.policy`: on a cluster that runs Kueue, the team quotas its queues keep. */
  policy?: GpuPolicy;
  /** Why the release, said first in the body (e.g. the request expired). */
  reason?: string;
  /** Compute the release, its diff, title and body; push nothing, open nothing. */
  dryRun?: boolean;
}

/** @public */
export interface ReleasePublishFacts {
  plan: ReleasePlan;
  /** Objects the product did not write beside the workload it created: the release leaves them. */
  leaves: ReleaseLeftObject[];
}

/**
 * The release's pull request; `changed` is false when the base holds the
 * release already (no commit, no pull request).
 *
 * @public
 */
export type PublishGpuReleaseResult = PublishedChange<ReleasePublishFacts>;

/** @public */
export async function publishGpuRelease(
  options: PublishGpuReleaseOptions,
): Promise<PublishGpuReleaseResult> {
  return publishRedacted(
    options,
    'release',
    (redactor, logger) => publish(options, redactor, logger),
    async (error, redactor, logger) =>
      isNotHeld(error) ? explainNotHeld(options, redactor, logger) : undefined,
  );
}

function isNotHeld(error: unknown): boolean {
  return (
    isGpuInputError(error) &&
    error.issues.some(issue => issue.rule === 'not-in-repository')
  );
}

/**
 * Why the base does not hold the request, from the remote's branches: its
 * release branch is there (released already), or only its request branch
 * (its pull request is not merged yet), or neither.
 */
async function explainNotHeld(
  options: PublishGpuReleaseOptions,
  redactor: Redactor,
  logger: PublishLogger,
) {
  const { namespace, name } = options.request;
  const repository = openRepository(options, redactor, logger);
  const requestBranch = requestBranchName(namespace, name);
  const releaseBranch = releaseBranchName(namespace, name);
  const heads = await repository.withBase(WHOLE_REPOSITORY, git =>
    git.run(['ls-remote', '--heads', 'origin', requestBranch, releaseBranch]),
  );
  const has = (branch: string) => heads.includes(`refs/heads/${branch}`);
  const where = `${repository.baseBranch} of ${redactor.redact(options.repoUrl)}`;
  const id = `${namespace}/${name}`;
  // A merged request branch may linger: its release branch says more.
  if (has(releaseBranch)) {
    return requestNotHeld(
      id,
      where,
      `it was released already (branch ${releaseBranch}).`,
    );
  }
  return requestNotHeld(
    id,
    where,
    has(requestBranch)
      ? `its pull request (branch ${requestBranch}) is not merged yet: merge it first, or close it instead of releasing.`
      : 'no request of that name was ever merged there, or it was released already.',
  );
}

function publish(
  options: PublishGpuReleaseOptions,
  redactor: Redactor,
  logger: PublishLogger,
): Promise<PublishGpuReleaseResult> {
  const { namespace, name } = options.request;
  return publishChange(options, redactor, logger, {
    branch: releaseBranchName(namespace, name),
    trailer: releaseTrailer(namespace, name),
    // A release reads every file that may name the request's workload.
    sparsePaths: WHOLE_REPOSITORY,
    dryRun: options.dryRun ?? false,
    heldAlready: baseBranch =>
      `${baseBranch} holds the release of ${namespace}/${name} already`,
    build: async ({ workDir, baseBranch, stage, kustomize }) => {
      const change = await buildReleaseChange({
        tree: new GitCheckoutTree(workDir),
        dir: workDir,
        parseCache: options.parseCache,
        request: options.request,
        clusterProfile: options.clusterProfile,
        catalog: options.catalog,
        layout: options.layout,
        policy: options.policy,
        where: `${baseBranch} of ${redactor.redact(options.repoUrl)}`,
        stage,
        kustomize,
      });
      const rendered = renderReleasePullRequest({
        plan: change.plan,
        files: change.changeSet.changes,
        reason: options.reason,
        leaves: change.leaves,
        redactor,
      });
      return {
        changeSet: change.changeSet,
        described: {
          plan: change.plan,
          leaves: change.leaves,
          title: rendered.title,
          body: rendered.body,
          commitMessage: rendered.commitMessage,
        },
      };
    },
  });
}
