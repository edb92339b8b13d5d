import type { z as zod } from 'zod/v3';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import {
  bootstrapBranchName,
  bootstrapPullRequestTitle,
  DEFAULT_OPERATOR_CHART_VERSION,
  publishGpuBootstrap,
} from '@gpu-gitops/plugin-gpu-node/onboarding';
import type { GpuActionServices } from '../services/gpuActionServices';
import { examples } from './gpuGitopsBootstrap.examples';
import {
  gitopsTargetInputProperties,
  publishTarget,
  requireGitOpsTarget,
} from './gitopsTarget';
import { publishOnce } from './publishOnce';
import { refusingCleanly } from './refusals';

const DESCRIPTION =
  "Opens the once-per-cluster pull request that prepares a cluster for GPU requests: the GPU Operator's Helm release and values (device plugin only on GPU nodes, config map names, MIG strategy, DCGM exporter), or, when the repository already declares a GPU Operator release, what to set in it; default device-plugin and all-disabled MIG configs (none for a ConfigMap the team wrote by hand); GPU EC2NodeClass; NVIDIA's DRA driver release when the profile enables DRA (its kubelet plugin on the DRA pools' nodes only); optional bin-packing scheduler (a second kube-scheduler `gpu-binpack` at the profile's kubernetesVersion, its RBAC and MostAllocated profile, in the GPU folder; also when the profile says binPacking: true); on a Karpenter cluster, Karpenter's Helm release pinned to the profile's version with the NodeOverlay gate as the profile says, or, when the repository already declares one, what to set in it. Never replaces a file it did not write.";

/** The bootstrap's own inputs, beside the GitOps target's. */
const bootstrapInputProperties = {
  cluster: (schemas: typeof zod) =>
    schemas
      .string()
      .optional()
      .describe('Cluster profile name (default: gpu.clusters.default)'),
  operatorChartVersion: (schemas: typeof zod) =>
    schemas
      .string()
      .optional()
      .describe(
        `GPU Operator Helm chart version (default ${DEFAULT_OPERATOR_CHART_VERSION})`,
      ),
  binPacking: (schemas: typeof zod) =>
    schemas
      .boolean()
      .optional()
      .describe(
        "Run the gpu-binpack scheduler (a second kube-scheduler, MostAllocated on GPUs); needs the profile's kubernetesVersion with its patch",
      ),
};

const bootstrapOutputProperties = {
  branchName: (schemas: typeof zod) => schemas.string(),
  pullRequestUrl: (schemas: typeof zod) => schemas.string(),
  changed: (schemas: typeof zod) => schemas.boolean(),
  files: (schemas: typeof zod) => schemas.array(schemas.string()),
  title: (schemas: typeof zod) => schemas.string(),
  body: (schemas: typeof zod) => schemas.string(),
  diff: (schemas: typeof zod) => schemas.string(),
};

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
    description: DESCRIPTION,
    examples,
    supportsDryRun: true,
    schema: {
      input: { ...gitopsTargetInputProperties, ...bootstrapInputProperties },
      output: bootstrapOutputProperties,
    },
    async handler(ctx) {
      const { input } = ctx;
      const target = await requireGitOpsTarget(input, services);
      const cluster = services.clusters.get(input.cluster);
      const result = await publishOnce(
        ctx,
        target,
        services.appBaseUrl,
        // One bootstrap per repository and cluster: a recovered task reads
        // the stored result back instead of publishing again.
        `gpu.bootstrap.${target.repoUrl}.${cluster.name}`,
        dryRun =>
          publishGpuBootstrap({
            cluster,
            operatorChartVersion: input.operatorChartVersion,
            binPacking: input.binPacking,
            ...publishTarget(target, services),
            dryRun,
            logger: ctx.logger,
          }),
      );
      // A task stored by an earlier version holds changed, files, url and
      // body only: its branch and title are the cluster's.
      ctx.output(
        'branchName',
        result.branch ?? bootstrapBranchName(cluster.name),
      );
      ctx.output('pullRequestUrl', ctx.isDryRun ? '' : (result.url ?? ''));
      ctx.output('changed', result.changed);
      ctx.output('files', result.files);
      ctx.output(
        'title',
        result.title ?? bootstrapPullRequestTitle(cluster.name),
      );
      ctx.output('body', result.body);
      ctx.output('diff', result.diff ?? '');
    },
  });
  // Refusals fail the step with their reason, never a stack trace.
  return refusingCleanly(action);
}
