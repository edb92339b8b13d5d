import path from 'node:path';
import type { z as zod } from 'zod/v3';
import {
  resolveSafeChildPath,
  type LoggerService,
} from '@backstage/backend-plugin-api';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { findModel } from '@gpu-gitops/plugin-gpu-common';
import {
  FsRepoTree,
  gpuRequestInputProperties,
  renderPullRequest,
  requestBranchName,
  type FileChange,
} from '@gpu-gitops/plugin-gpu-node';
import type { GpuActionServices } from '../services/gpuActionServices';
import { examples } from './gpuGitopsRender.examples';
import {
  gitopsTargetInputProperties,
  requireGitOpsTarget,
  withGitOpsBase,
} from './gitopsTarget';
import { gpuRequestFromInput, toInputError } from './gpuRequestInput';
import {
  planGpuRequest,
  planSummaryMarkdown,
  type PlannedGpuRequest,
} from './planGpuRequest';
import { refusingCleanly } from './refusals';
import { runStage } from './stages';

const renderOutputProperties = {
  targetPath: (schemas: typeof zod) =>
    schemas.string().describe('Workspace folder written'),
  files: (schemas: typeof zod) =>
    schemas
      .array(
        schemas.object({ path: schemas.string(), action: schemas.string() }),
      )
      .describe('Repository-relative files of the change set'),
  changed: (schemas: typeof zod) =>
    schemas
      .boolean()
      .describe('False when the repository already holds the request'),
  branchName: (schemas: typeof zod) =>
    schemas.string().describe('Branch name for the pull request'),
  title: (schemas: typeof zod) =>
    schemas.string().describe('Pull request title'),
  body: (schemas: typeof zod) =>
    schemas.string().describe('Pull request body (markdown)'),
  summary: (schemas: typeof zod) =>
    schemas.string().describe('Markdown summary of the plan'),
};

/**
 * `gpu:gitops:render`: plans the request against the GitOps repository and
 * writes the resulting change set (full new content of every created or
 * updated file) into the workspace under `targetPath`, ready for
 * `publish:github:pull-request` / `publish:gitlab:merge-request`.
 *
 * @public
 */
export function createGpuGitopsRenderAction(services: GpuActionServices) {
  const action = createTemplateAction({
    id: 'gpu:gitops:render',
    description:
      'Plans a GPU request against the GitOps repository and writes the changed files (NodePool, NodeOverlays, device-plugin and MIG configs, workload, kustomizations) into the workspace, for publish:github:pull-request or publish:gitlab:merge-request.',
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        ...gpuRequestInputProperties,
        ...gitopsTargetInputProperties,
        targetPath: (schemas: typeof zod) =>
          schemas
            .string()
            .optional()
            .describe(
              'Workspace folder the repository-relative files are written under (default "gitops")',
            ),
      },
      output: renderOutputProperties,
    },
    async handler(ctx) {
      const { input, logger } = ctx;
      const targetPath = input.targetPath || 'gitops';
      const outputDir = resolveSafeChildPath(ctx.workspacePath, targetPath);
      const cluster = services.clusters.get(input.cluster);
      // The change is computed against what the repository holds (its
      // pools, configs, workloads): without one there is nothing to render it onto.
      const target = await requireGitOpsTarget(input, services);
      const planned = await withGitOpsBase(
        target,
        gpuRequestFromInput(input),
        cluster.name,
        logger,
        base => planGpuRequest({ input, services, logger, base, verify: true }),
      );
      const changeSet = planned.change!.changeSet;
      await runStage(logger, `Write files under ${targetPath}`, () =>
        writeChangeSet(ctx.workspacePath, outputDir, changeSet.changes, logger),
      );
      const { title, body } = pullRequestText(planned);
      const { namespace, name } = planned.request.metadata;
      ctx.output('targetPath', targetPath);
      ctx.output(
        'files',
        changeSet.changes.map(c => ({ path: c.path, action: c.action })),
      );
      ctx.output('changed', !changeSet.empty);
      ctx.output('branchName', requestBranchName(namespace, name));
      ctx.output('title', title);
      ctx.output('body', body);
      ctx.output('summary', planSummaryMarkdown(planned));
    },
  });
  // Refusals fail the step with their reason, never a stack trace.
  return refusingCleanly(action);
}

/**
 * Writes `changes` under `outputDir` of the workspace through FsRepoTree, as
 * every repository write: a symbolic link on the way (left by an earlier
 * step) is refused, never followed.
 */
async function writeChangeSet(
  workspacePath: string,
  outputDir: string,
  changes: FileChange[],
  logger: LoggerService,
): Promise<void> {
  const workspace = new FsRepoTree(workspacePath);
  const folder = path
    .relative(workspacePath, outputDir)
    .split(path.sep)
    .join('/');
  try {
    for (const change of changes) {
      const at = folder ? `${folder}/${change.path}` : change.path;
      if (change.action === 'delete') await workspace.deleteFile(at);
      else await workspace.writeFile(at, change.content);
      logger.info(`${change.action} ${change.path}`);
    }
  } catch (error) {
    throw toInputError(error);
  }
}

/** The pull request's title and body, as the publishing action writes them. */
function pullRequestText(planned: PlannedGpuRequest) {
  const existing = planned.change?.existing;
  return renderPullRequest({
    plan: planned.plan,
    files: planned.change!.changeSet.changes,
    model: findModel(planned.catalog, planned.plan.pool.gpuModel),
    existing: existing && {
      container: existing.target.container,
      current: existing.current,
      merged: existing.merged,
    },
  });
}
