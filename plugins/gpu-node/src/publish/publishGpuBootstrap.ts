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
import {
  checkGitOpsRepoUrl,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { renderChangeSetDiff } from '../changes/diff';
import {
  buildBootstrapChangeSet,
  DEFAULT_OPERATOR_CHART_VERSION,
  type BootstrapChangeSet,
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
import {
  openRepository,
  publishRedacted,
  pullRequestStage,
  pushStage,
  type GitOpsTargetOptions,
} from './gitopsTarget';
import { runStage, type StageTiming } from './stages';

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

/** @public */
export interface PublishGpuBootstrapResult {
  branch: string;
  commit?: string;
  /** PR / MR URL; undefined in a dry run or when nothing changed. */
  url?: string;
  number?: number;
  /** False when the base is bootstrapped already: no commit, no pull request. */
  changed: boolean;
  /** True when an existing branch / PR was updated rather than created. */
  updated: boolean;
  files: string[];
  title: string;
  /** The pull request's description (markdown). */
  body: string;
  /** Unified diff of the change (dry run only). */
  diff?: string;
  baseSha: string;
  dryRun: boolean;
  attempts: number;
  stages: StageTiming[];
}

/** @public */
export async function publishGpuBootstrap(
  options: PublishGpuBootstrapOptions,
): Promise<PublishGpuBootstrapResult> {
  return publishRedacted(options, 'bootstrap', (redactor, logger) =>
    publish(options, redactor, logger),
  );
}

async function publish(
  options: PublishGpuBootstrapOptions,
  redactor: Redactor,
  logger: PublishLogger,
): Promise<PublishGpuBootstrapResult> {
  checkGitOpsRepoUrl(options.repoUrl);
  const stages: StageTiming[] = [];
  const cluster = options.cluster.name;
  const branch = bootstrapBranchName(cluster);
  const title = bootstrapPullRequestTitle(cluster);
  const repository = openRepository(options, redactor, logger);
  const build = (workDir: string): Promise<BootstrapChangeSet> =>
    runStage(logger, stages, 'Render bootstrap', () =>
      buildBootstrapChangeSet(new FsRepoTree(workDir), options.cluster, {
        operatorChartVersion:
          options.operatorChartVersion || DEFAULT_OPERATOR_CHART_VERSION,
        binPacking: options.binPacking ?? false,
        layout: options.layout,
      }),
    );
  const describe = (changeSet: BootstrapChangeSet) =>
    redactor.redact(renderBootstrapBody(cluster, changeSet));

  if (options.dryRun) {
    // Under the clone lock while it reads: no other run moves the checkout.
    return repository.withBase(
      bootstrapFolders(),
      async ({ workDir, baseSha }) => {
        const changeSet = await build(workDir);
        return {
          branch,
          changed: !changeSet.empty,
          updated: false,
          files: changeSet.changes.map(c => c.path).sort(),
          title,
          body: describe(changeSet),
          diff: redactor.redact(renderChangeSetDiff(changeSet)),
          baseSha,
          dryRun: true,
          attempts: 0,
          stages,
        };
      },
    );
  }

  let body = '';
  const pushed = await pushStage(logger, stages, options, repository, {
    branch,
    trailer: bootstrapTrailer(cluster),
    sparsePaths: bootstrapFolders(),
    build: async ({ workDir }) => {
      const changeSet = await build(workDir);
      body = describe(changeSet);
      return changeSet.empty
        ? undefined
        : { changes: changeSet.changes, message: `${title}\n\n${body}` };
    },
  });
  const common = {
    branch,
    title,
    body,
    baseSha: pushed.baseSha,
    dryRun: false,
    attempts: pushed.attempts,
    stages,
  };
  if (!pushed.changed) {
    logger.info(`${repository.baseBranch} holds the bootstrap already`);
    return { ...common, changed: false, updated: false, files: [] };
  }
  const pr = await pullRequestStage(logger, stages, options, redactor, {
    baseBranch: repository.baseBranch,
    branch,
    title,
    body,
    branchExisted: pushed.branchExisted,
  });
  return {
    ...common,
    commit: pushed.commit,
    url: pr.url,
    number: pr.number,
    changed: true,
    updated: pr.updated,
    files: pushed.files,
  };
}
