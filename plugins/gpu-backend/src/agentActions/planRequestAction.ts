/**
 * `gpu:plan-gpu-request`: what POST /plan answers, for an AI assistant: the
 * plan of a GPU request against the allocation index (pool, sharing, nodes,
 * cost, the owner's quota), refused as the form refuses it. Reads only.
 */
import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { InputError } from '@backstage/errors';
import {
  gpuRequestFromFormValues,
  type PlanPreviewResponse,
} from '@gpu-gitops/plugin-gpu-common';
import { previewPlan, type PlanPreviewSource } from '../http/planPreview';
import { clusterProfileOf } from '../http/routeContext';
import type { RouterOptions } from '../http/routeContext';
import { gpuRequestFields } from './requestFields';

/** What the planning actions read: the index, the catalog, the clusters and the policy. */
export type AgentPlanningSource = PlanPreviewSource &
  Pick<RouterOptions, 'clusters'>;

/**
 * The preview of the request the flat `input` describes, on its cluster;
 * a refusal is an InputError naming each field and its rule.
 */
export function previewRequest(
  source: AgentPlanningSource,
  input: Parameters<typeof gpuRequestFromFormValues>[0],
): PlanPreviewResponse {
  const cluster = clusterProfileOf(source, input.cluster);
  const outcome = previewPlan(source, cluster, gpuRequestFromFormValues(input));
  if (!outcome.planned) throw new InputError(outcome.body.error.message);
  return outcome.body;
}

export function registerPlanRequestAction(
  registry: ActionsRegistryService,
  source: AgentPlanningSource,
): void {
  registry.register({
    name: 'plan-gpu-request',
    title: 'Plan a GPU request',
    description:
      'Shows what a GPU request would get before anyone files it: the GPU model, the sharing mode, ' +
      'the node pool it lands on (reused or new), the nodes, its cost per month and what it leaves of ' +
      "its owner's GPU quota, in the same words as the request form's preview. " +
      "It checks the owner's policy and quota the way the form does and changes nothing.",
    attributes: { readOnly: true, destructive: false, idempotent: true },
    schema: {
      input: z => z.object(gpuRequestFields(z)),
      output: z =>
        z.object({
          summary: z
            .string()
            .describe('The plan in words, as the form shows it'),
          plan: z
            .record(z.unknown())
            .describe('The plan as JSON (the body of POST /api/gpu/plan)'),
          quota: z
            .record(z.unknown())
            .optional()
            .describe("The owner's GPU quota on the cluster with this request"),
          existing: z
            .record(z.unknown())
            .optional()
            .describe('The existing workload the request names'),
        }),
    },
    action: async ({ input }) => {
      const preview = previewRequest(source, input);
      return {
        output: {
          summary: preview.summary,
          plan: preview.plan as unknown as Record<string, unknown>,
          ...(preview.quota
            ? { quota: preview.quota as unknown as Record<string, unknown> }
            : {}),
          ...(preview.existing
            ? {
                existing: preview.existing as unknown as Record<
                  string,
                  unknown
                >,
              }
            : {}),
        },
      };
    },
  });
}
