import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import {
  bootstrapFolders,
  buildBootstrapChangeSet,
  createForge,
  DEFAULT_OPERATOR_CHART_VERSION,
  FsRepoTree,
  GitOpsRepository,
  renderChangeSetDiff,
  type BootstrapChangeSet,
  forgeApiBaseUrl,
} from '@gpu-gitops/plugin-gpu-node';
import { InputError } from '@backstage/errors';
import type { GpuActionServices } from '../services/gpuActionServices';

import { examples } from './gpuGitopsBootstrap.examples';
import {
  gitopsTargetInputProperties,
  resolveGitOpsTarget,
  withGitOpsBase,
  tokenUsername,
} from './gitopsTarget';
import { pullRequestLink } from './pullRequestLink';
import { runStage } from './stages';
import { refusingCleanly } from './refusals';

function bootstrapBody(cluster: string, changeSet: BootstrapChangeSet): string {
  const operator =
    changeSet.gpuOperatorRelease === 'bootstrap'
      ? [
          "- NVIDIA GPU Operator: no release of it was found in the repository, so the bootstrap's own is in the cluster's `gpu-operator/` folder (if the operator is installed outside the repository, drop that folder and give that release these values). Its values: operands tolerate the GPU taint and run only on GPU nodes (`nvidia.com/gpu.present`, from NFD `feature.node.kubernetes.io/pci-10de.present`); the operator stays off GPU nodes.",
          '- ClusterPolicy `devicePlugin.config` names the device-plugin ConfigMap (default key `default`), `migManager.config` the mig-parted ConfigMap (default `all-disabled`), `mig.strategy` from the cluster profile.',
          '- DCGM exporter maps `nvidia.com/gpu.shared` pods (`NVIDIA_RESOURCE_NAMES`).',
        ]
      : [
          '- NVIDIA GPU Operator: installed by a release the repository declares, which the bootstrap never edits; the notes say what it sets and what to set in it.',
        ];
  return [
    `Prepares cluster **${cluster}** for GPU self-service (once per cluster).`,
    '',
    ...operator,
    '- GPU EC2NodeClass with `al2023@latest` (when the cluster profile generates it).',
    ...(changeSet.notes.length > 0
      ? ['', 'Notes:', ...changeSet.notes.map(note => `- ${note}`)]
      : []),
    '',
    'Files:',
    ...changeSet.changes.map(c => `- ${c.action} \`${c.path}\``),
  ].join('\n');
}

/**
 * `gpu:gitops:bootstrap`: the once-per-cluster pull request of the
 * gpu-cluster-bootstrap template, with the same repository, credentials,
 * branch and forge flow as gpu:gitops:pull-request.
 *
 * @public
 */
export function createGpuGitopsBootstrapAction(services: GpuActionServices) {
  const action = createTemplateAction({
    id: 'gpu:gitops:bootstrap',
    description:
      "Opens the once-per-cluster pull request that prepares a cluster for GPU requests: the GPU Operator's Helm release and values (device plugin only on GPU nodes, config map names, MIG strategy, DCGM exporter), or, when the repository already declares a GPU Operator release, what to set in it; default device-plugin and all-disabled MIG configs (none for a ConfigMap the team wrote by hand); GPU EC2NodeClass; optional bin-packing scheduler (a second kube-scheduler `gpu-binpack` at the profile's kubernetesVersion, its RBAC and MostAllocated profile, in the GPU folder; also when the profile says binPacking: true); on a Karpenter cluster, Karpenter's Helm release pinned to the profile's version with the NodeOverlay gate as the profile says, or, when the repository already declares one, what to set in it. Never replaces a file it did not write.",
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        ...gitopsTargetInputProperties,
        cluster: z =>
          z
            .string()
            .optional()
            .describe('Cluster profile name (default: gpu.clusters.default)'),
        operatorChartVersion: z =>
          z
            .string()
            .optional()
            .describe(
              `GPU Operator Helm chart version (default ${DEFAULT_OPERATOR_CHART_VERSION})`,
            ),
        binPacking: z =>
          z
            .boolean()
            .optional()
            .describe(
              "Run the gpu-binpack scheduler (a second kube-scheduler, MostAllocated on GPUs); needs the profile's kubernetesVersion with its patch",
            ),
      },
      output: {
        branchName: z => z.string(),
        pullRequestUrl: z => z.string(),
        changed: z => z.boolean(),
        files: z => z.array(z.string()),
        title: z => z.string(),
        body: z => z.string(),
        diff: z => z.string(),
      },
    },
    async handler(ctx) {
      const { input } = ctx;
      const target = await resolveGitOpsTarget(input, services);
      if (!target) {
        throw new InputError(
          'input "repoUrl": no GitOps repository given and gpu.gitops.repoUrl is not configured [required]',
        );
      }
      const cluster = services.clusters.get(input.cluster);
      const options = {
        operatorChartVersion:
          input.operatorChartVersion || DEFAULT_OPERATOR_CHART_VERSION,
        binPacking: input.binPacking ?? false,
      };
      const branch = `gpu/bootstrap-${cluster.name}`;
      const title = `GPU bootstrap for cluster ${cluster.name}`;

      if (ctx.isDryRun) {
        const changeSet = await withGitOpsBase(
          target,
          undefined,
          cluster.name,
          ctx.logger,
          ({ tree }) =>
            runStage(ctx.logger, 'Render bootstrap', () =>
              buildBootstrapChangeSet(tree, cluster, options),
            ),
          bootstrapFolders(),
        );
        ctx.output('branchName', branch);
        ctx.output('pullRequestUrl', '');
        ctx.output('changed', !changeSet.empty);
        ctx.output(
          'files',
          changeSet.changes.map(c => c.path),
        );
        ctx.output('title', title);
        ctx.output('body', bootstrapBody(cluster.name, changeSet));
        ctx.output('diff', renderChangeSetDiff(changeSet));
        return;
      }

      const result = await ctx.checkpoint({
        key: `gpu.bootstrap.${target.repoUrl}.${cluster.name}`,
        fn: async () => {
          const repository = new GitOpsRepository({
            repoUrl: target.repoUrl,
            baseBranch: target.baseBranch,
            cacheDir: target.cacheDir,
            token: target.credentials.token,
            tokenUsername: tokenUsername(target),
            author: target.author,
            logger: ctx.logger,
            timeoutMs: target.timeoutMs,
          });
          let body = '';
          const published = await runStage(
            ctx.logger,
            'Commit and push bootstrap branch',
            () =>
              repository.publishBranch({
                branch,
                trailer: `Gpu-Bootstrap: ${cluster.name}`,
                sparsePaths: bootstrapFolders(),
                build: async ({ workDir }) => {
                  const changeSet = await buildBootstrapChangeSet(
                    new FsRepoTree(workDir),
                    cluster,
                    options,
                  );
                  body = bootstrapBody(cluster.name, changeSet);
                  return changeSet.empty
                    ? undefined
                    : {
                        changes: changeSet.changes,
                        message: `${title}\n\n${body}`,
                      };
                },
              }),
          );
          let url = '';
          if (published.changed) {
            const forge = createForge(target.forge, {
              token: target.credentials.token,
              timeoutMs: target.timeoutMs,
              apiBaseUrl: forgeApiBaseUrl(
                target.repoUrl,
                target.forge,
                services.integrations,
              ),
            });
            const pr = await runStage(
              ctx.logger,
              `Open ${target.forge} pull request`,
              () =>
                forge.createOrUpdatePullRequest({
                  repoUrl: target.repoUrl,
                  baseBranch: target.baseBranch,
                  headBranch: branch,
                  title,
                  body,
                }),
            );
            url = pullRequestLink({
              forge: target.forge,
              branch,
              forgeUrl: pr.url,
              appBaseUrl: services.appBaseUrl,
            });
          }
          return {
            changed: published.changed,
            files: published.files,
            url,
            body,
          };
        },
      });
      ctx.output('branchName', branch);
      ctx.output('pullRequestUrl', result.url);
      ctx.output('changed', result.changed);
      ctx.output('files', result.files);
      ctx.output('title', title);
      ctx.output('body', result.body);
      ctx.output('diff', '');
    },
  });
  // Refusals fail the step with their reason, never a stack trace.
  return refusingCleanly(action);
}
