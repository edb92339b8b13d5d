import path from 'node:path';
import { resolveSafeChildPath } from '@backstage/backend-plugin-api';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { findModel } from '@gpu-gitops/plugin-gpu-common';
import {
  FsRepoTree,
  renderPullRequest,
  requestBranchName,
  gpuRequestInputProperties,
} from '@gpu-gitops/plugin-gpu-node';
import type { GpuActionServices } from '../services/gpuActionServices';
import { examples } from './gpuGitopsRender.examples';
import {
  gitopsTargetInputProperties,
  requireGitOpsTarget,
  withGitOpsBase,
} from './gitopsTarget';
import { gpuRequestFromInput, toInputError } from './gpuRequestInput';
import { planGpuRequest, planSummaryMarkdown } from './planGpuRequest';
import { runStage } from './stages';
import { refusingCleanly } from './refusals';

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
        targetPath: z =>
          z
            .string()
            .optional()
            .describe(
              'Workspace folder the repository-relative files are written under (default "gitops")',
            ),
      },
      output: {
        targetPath: z => z.string().describe('Workspace folder written'),
        files: z =>
          z
            .array(z.object({ path: z.string(), action: z.string() }))
            .describe('Repository-relative files of the change set'),
        changed: z =>
          z
            .boolean()
            .describe('False when the repository already holds the request'),
        branchName: z =>
          z.string().describe('Branch name for the pull request'),
        title: z => z.string().describe('Pull request title'),
        body: z => z.string().describe('Pull request body (markdown)'),
        summary: z => z.string().describe('Markdown summary of the plan'),
      },
    },
    async handler(ctx) {
      const { input } = ctx;
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
        ctx.logger,
        base =>
          planGpuRequest({
            input,
            services,
            logger: ctx.logger,
            base,
            verify: true,
          }),
      );
      const changeSet = planned.change!.changeSet;
      await runStage(
        ctx.logger,
        `Write files under ${targetPath}`,
        async () => {
          // Through FsRepoTree, as every repository write: a symbolic link on
          // the way (left by an earlier step) is refused, never followed.
          const workspace = new FsRepoTree(ctx.workspacePath);
          const folder = path
            .relative(ctx.workspacePath, outputDir)
            .split(path.sep)
            .join('/');
          try {
            for (const change of changeSet.changes) {
              const at = folder ? `${folder}/${change.path}` : change.path;
              if (change.action === 'delete') await workspace.deleteFile(at);
              else await workspace.writeFile(at, change.content);
              ctx.logger.info(`${change.action} ${change.path}`);
            }
          } catch (error) {
            throw toInputError(error);
          }
        },
      );
      const existing = planned.change?.existing;
      const { title, body } = renderPullRequest({
        plan: planned.plan,
        files: changeSet.changes,
        model: findModel(planned.catalog, planned.plan.pool.gpuModel),
        existing: existing && {
          container: existing.target.container,
          current: existing.current,
          merged: existing.merged,
        },
      });
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
