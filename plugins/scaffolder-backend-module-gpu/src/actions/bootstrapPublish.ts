/**
 * The steps of `gpu:gitops:bootstrap`: what a run bootstraps, its preview (a
 * dry run) and its publish (the branch, then the forge's pull request).
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import {
  bootstrapBranchName,
  bootstrapFolders,
  bootstrapTrailer,
  buildBootstrapChangeSet,
  createForge,
  DEFAULT_OPERATOR_CHART_VERSION,
  FsRepoTree,
  renderChangeSetDiff,
} from '@gpu-gitops/plugin-gpu-node';
import type { GpuActionServices } from '../services/gpuActionServices';
import { bootstrapBody } from './bootstrapBody';
import {
  gitopsRepository,
  publishTarget,
  requireGitOpsTarget,
  withGitOpsBase,
  type GitOpsTarget,
  type GitOpsTargetInput,
} from './gitopsTarget';
import { pullRequestLink } from './pullRequestLink';
import { runStage } from './stages';

export interface BootstrapInput extends GitOpsTargetInput {
  cluster?: string;
  operatorChartVersion?: string;
  binPacking?: boolean;
}

/** What one run bootstraps, where, and the branch and title of its pull request. */
export interface BootstrapRun {
  target: GitOpsTarget;
  cluster: ClusterProfile;
  options: { operatorChartVersion: string; binPacking: boolean };
  branch: string;
  title: string;
}

/**
 * What a real run stored under its checkpoint: a recovered task reads it
 * back instead of publishing again (the shape must stay readable).
 */
export type PublishedBootstrap = {
  changed: boolean;
  files: string[];
  url: string;
  body: string;
};

export async function bootstrapRunOf(
  input: BootstrapInput,
  services: GpuActionServices,
): Promise<BootstrapRun> {
  const target = await requireGitOpsTarget(input, services);
  const cluster = services.clusters.get(input.cluster);
  return {
    target,
    cluster,
    options: {
      operatorChartVersion:
        input.operatorChartVersion || DEFAULT_OPERATOR_CHART_VERSION,
      binPacking: input.binPacking ?? false,
    },
    branch: bootstrapBranchName(cluster.name),
    title: `GPU bootstrap for cluster ${cluster.name}`,
  };
}

/** The checkpoint key of a run: one bootstrap per repository and cluster. */
export function bootstrapCheckpointKey(run: BootstrapRun): string {
  return `gpu.bootstrap.${run.target.repoUrl}.${run.cluster.name}`;
}

/** A dry run: the change set on the base branch, nothing pushed. */
export async function previewBootstrap(
  run: BootstrapRun,
  logger: LoggerService,
): Promise<PublishedBootstrap & { diff: string }> {
  const changeSet = await withGitOpsBase(
    run.target,
    undefined,
    run.cluster.name,
    logger,
    ({ tree }) =>
      runStage(logger, 'Render bootstrap', () =>
        buildBootstrapChangeSet(tree, run.cluster, run.options),
      ),
    bootstrapFolders(),
  );
  return {
    changed: !changeSet.empty,
    files: changeSet.changes.map(c => c.path),
    url: '',
    body: bootstrapBody(run.cluster.name, changeSet),
    diff: renderChangeSetDiff(changeSet),
  };
}

/** Pushes the bootstrap branch and, when it changed, opens its pull request. */
export async function publishBootstrap(
  run: BootstrapRun,
  logger: LoggerService,
  services: Pick<GpuActionServices, 'integrations' | 'appBaseUrl'>,
): Promise<PublishedBootstrap> {
  const { published, body } = await pushBootstrapBranch(run, logger);
  const url = published.changed
    ? await openBootstrapPullRequest(run, body, logger, services)
    : '';
  return { changed: published.changed, files: published.files, url, body };
}

async function pushBootstrapBranch(run: BootstrapRun, logger: LoggerService) {
  const { cluster, branch, title } = run;
  let body = '';
  const published = await runStage(
    logger,
    'Commit and push bootstrap branch',
    () =>
      gitopsRepository(run.target, logger).publishBranch({
        branch,
        trailer: bootstrapTrailer(cluster.name),
        sparsePaths: bootstrapFolders(),
        build: async ({ workDir }) => {
          const changeSet = await buildBootstrapChangeSet(
            new FsRepoTree(workDir),
            cluster,
            run.options,
          );
          body = bootstrapBody(cluster.name, changeSet);
          return changeSet.empty
            ? undefined
            : { changes: changeSet.changes, message: `${title}\n\n${body}` };
        },
      }),
  );
  return { published, body };
}

/** Opens (or updates) the pull request; its link is the one a task shows. */
async function openBootstrapPullRequest(
  run: BootstrapRun,
  body: string,
  logger: LoggerService,
  services: Pick<GpuActionServices, 'integrations' | 'appBaseUrl'>,
): Promise<string> {
  const { target, branch } = run;
  const publishing = publishTarget(target, services);
  const forge = createForge(target.forge, {
    token: publishing.token,
    timeoutMs: publishing.timeoutMs,
    apiBaseUrl: publishing.forgeApiBaseUrl,
  });
  const pr = await runStage(logger, `Open ${target.forge} pull request`, () =>
    forge.createOrUpdatePullRequest({
      repoUrl: target.repoUrl,
      baseBranch: target.baseBranch,
      headBranch: branch,
      title: run.title,
      body,
    }),
  );
  return pullRequestLink({
    forge: target.forge,
    branch,
    forgeUrl: pr.url,
    appBaseUrl: services.appBaseUrl,
  });
}
