import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { planToJson } from '@gpu-gitops/plugin-gpu-common';
import type { JsonValue } from '@backstage/types';
import { gpuRequestInputProperties } from '@gpu-gitops/plugin-gpu-node';
import type { GpuActionServices } from '../services/gpuActionServices';
import { examples } from './gpuPlan.examples';
import {
  gitopsTargetInputProperties,
  resolveGitOpsTarget,
  withGitOpsBase,
} from './gitopsTarget';
import { gpuRequestFromInput } from './gpuRequestInput';
import { planGpuRequest, planSummaryMarkdown } from './planGpuRequest';
import { planOutputProperties } from './planOutputProperties';
import { refusingCleanly } from './refusals';

/**
 * `gpu:plan`: validates a GPU request, plans it against the GitOps
 * repository's current state (pool reuse, limits) and the policy, and outputs
 * the plan. Reads only, so it runs in dry-run too.
 *
 * @public
 */
export function createGpuPlanAction(services: GpuActionServices) {
  const action = createTemplateAction({
    id: 'gpu:plan',
    description:
      'Validates a GPU request and plans it: GPU model, node pool (reused or new), sharing config, VRAM guarantee, nodes and cost. Fails with the field named when the request is invalid, not allowed or over quota.',
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        ...gpuRequestInputProperties,
        ...gitopsTargetInputProperties,
        readRepository: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Read the GitOps repository to reuse pools and count quota (default true when a repository is configured)',
            ),
      },
      output: planOutputProperties,
    },
    async handler(ctx) {
      const { input } = ctx;
      const target =
        input.readRepository === false
          ? undefined
          : await resolveGitOpsTarget(input, services);
      const cluster = services.clusters.get(input.cluster);
      const planned = target
        ? await withGitOpsBase(
            target,
            gpuRequestFromInput(input),
            cluster.name,
            ctx.logger,
            base =>
              planGpuRequest({ input, services, logger: ctx.logger, base }),
          )
        : await planGpuRequest({ input, services, logger: ctx.logger });
      const json = planToJson(planned.plan);
      const summary = planSummaryMarkdown(planned);
      for (const warning of json.warnings) ctx.logger.warn(warning);
      ctx.logger.info(summary);

      ctx.output('cluster', json.cluster);
      ctx.output('pool', json.pool);
      ctx.output('sharing', json.sharing);
      ctx.output('resourceName', json.resourceName);
      ctx.output('resourcePerReplica', json.resourcePerReplica);
      ctx.output('replicas', json.replicas);
      ctx.output('perReplica', json.perReplica);
      ctx.output('nodes', json.nodes);
      ctx.output('physicalGpus', json.physicalGpus);
      ctx.output('cost', json.cost);
      ctx.output('warnings', json.warnings);
      ctx.output('explanation', json.explanation);
      ctx.output('plan', json as unknown as Record<string, JsonValue>);
      ctx.output('summary', summary);
    },
  });
  // Refusals fail the step with their reason, never a stack trace.
  return refusingCleanly(action);
}
