/**
 * The bootstrap publisher: the once-per-cluster pull request that prepares a
 * cluster for GPU requests (GPU Operator release or what to set in the
 * team's, default device-plugin and MIG configs, GPU node class, DRA driver,
 * bin-packing scheduler, Karpenter's release).
 *
 *   clone/fetch → buildBootstrapChangeSet → commit + push (rebuilt on a
 *     moved base) → forge PR
 *
 * Used by the CLI `bootstrap` command and the `gpu:gitops:bootstrap` action,
 * through the same repository, lock, push and forge steps as the request,
 * release and import publishers (`gitopsTarget.ts`). Idempotent: the branch
 * is `gpu/bootstrap-<cluster>`; a repository bootstrapped already changes
 * nothing (no commit, no pull request).
 */
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import {
  buildBootstrapChangeSet,
  DEFAULT_OPERATOR_CHART_VERSION,
} from '../changes/bootstrap/bootstrapChangeSet';
import { bootstrapFolders } from '../changes/bootstrap/bootstrapPaths';
import { bootstrapBranchName, bootstrapTrailer } from '../git/branchName';
import type { LayoutInput } from '../layout/layout';
import {
  bootstrapPullRequestTitle,
  renderBootstrapBody,
} from '../pr/renderBootstrapBody';
import { FsRepoTree } from '../repo/tree';
import type { PublishLogger, Redactor } from '../redact';
import { publishRedacted, type GitOpsTargetOptions } from './gitopsTarget';
import { publishChange, type PublishedChange } from './publishChange';

/** @public */
export interface PublishGpuBootstrapOptions extends GitOpsTargetOptions {
  /** The cluster to prepare (its folder, provider, versions, DRA and bin-packing choices). */
  cluster: ClusterProfile;
  /** GPU Operator Helm chart version (default `DEFAULT_OPERATOR_CHART_VERSION`). */
  operatorChartVersion?: string;
  /** Run the `gpu-binpack` scheduler (also when the profile says `binPacking: true`). */
  binPacking?: boolean;
  layout?: LayoutInput;
  /** Compute the change, its description and diff; push nothing, open nothing. */
  dryRun?: boolean;
}

/**
 * The bootstrap's pull request says all there is about it: no facts beside.
 *
 * @public
 */
export type BootstrapPublishFacts = object;

/**
 * The bootstrap's pull request; `changed` is false when the base is
 * bootstrapped already (no commit, no pull request).
 *
 * @public
 */
export type PublishGpuBootstrapResult = PublishedChange<BootstrapPublishFacts>;

/** @public */
export async function publishGpuBootstrap(
  options: PublishGpuBootstrapOptions,
): Promise<PublishGpuBootstrapResult> {
  return publishRedacted(options, 'bootstrap', (redactor, logger) =>
    publish(options, redactor, logger),
  );
}

function publish(
  options: PublishGpuBootstrapOptions,
  redactor: Redactor,
  logger: PublishLogger,
): Promise<PublishGpuBootstrapResult> {
  const cluster = options.cluster.name;
  const title = bootstrapPullRequestTitle(cluster);
  // No facts beyond the description: the change set says the rest.
  return publishChange<BootstrapPublishFacts>(options, redactor, logger, {
    branch: bootstrapBranchName(cluster),
    trailer: bootstrapTrailer(cluster),
    sparsePaths: bootstrapFolders(),
    dryRun: options.dryRun ?? false,
    heldAlready: baseBranch => `${baseBranch} holds the bootstrap already`,
    build: async ({ workDir, stage }) => {
      const changeSet = await stage('Render bootstrap', () =>
        buildBootstrapChangeSet(new FsRepoTree(workDir), options.cluster, {
          operatorChartVersion:
            options.operatorChartVersion || DEFAULT_OPERATOR_CHART_VERSION,
          binPacking: options.binPacking ?? false,
          layout: options.layout,
        }),
      );
      const body = redactor.redact(renderBootstrapBody(cluster, changeSet));
      return {
        changeSet,
        described: { title, body, commitMessage: `${title}\n\n${body}` },
      };
    },
  });
}
