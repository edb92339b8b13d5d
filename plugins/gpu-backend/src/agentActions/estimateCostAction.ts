/**
 * `gpu:estimate-gpu-request-cost`: the cost figures of a GPU request's plan
 * (the one cost model, capacity/poolCost.ts in gpu-common), for an AI
 * assistant that weighs options. Reads only.
 */
import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { formatUsd } from '@gpu-gitops/plugin-gpu-common';
import { previewRequest, type AgentPlanningSource } from './planRequestAction';
import { gpuRequestFields } from './requestFields';

export function registerEstimateCostAction(
  registry: ActionsRegistryService,
  source: AgentPlanningSource,
): void {
  registry.register({
    name: 'estimate-gpu-request-cost',
    title: 'Estimate the cost of a GPU request',
    description:
      'Tells what a GPU request would cost, in US dollars: its share of the node pool per month and ' +
      "per hour, and how much the cluster's bill changes (nothing when it fits GPUs already paid for). " +
      'The figures are those of the plan (plan-gpu-request); requests the form would refuse are refused. ' +
      'It changes nothing.',
    attributes: { readOnly: true, destructive: false, idempotent: true },
    schema: {
      input: z => z.object(gpuRequestFields(z)),
      output: z =>
        z.object({
          summary: z.string().describe('The cost in one sentence'),
          usdPerMonth: z
            .number()
            .describe("The request's share of its pool's nodes, USD a month"),
          usdPerHour: z.number().describe('The same, USD an hour'),
          marginalUsdPerMonth: z
            .number()
            .describe(
              "What the change adds to the cluster's bill, USD a month (0: fits paid capacity; below 0: frees nodes)",
            ),
          priceKnown: z
            .boolean()
            .describe(
              "False when the pool's machine has no known price (every figure is then 0)",
            ),
          gpuModel: z.string().describe('The GPU model planned'),
          sharing: z.string().describe('The sharing mode planned'),
          physicalGpus: z
            .number()
            .describe(
              'Physical GPUs the request holds (what its quota counts)',
            ),
          pool: z.string().describe('The node pool it lands on'),
          poolNodes: z.number().describe('Nodes of the pool after the change'),
          poolUsdPerMonth: z
            .number()
            .describe("The pool's nodes' price after the change, USD a month"),
        }),
    },
    action: async ({ input }) => {
      const { plan } = previewRequest(source, input);
      const { cost } = plan;
      const summary = cost.priceKnown
        ? `${formatUsd(cost.usdPerMonth)} a month (${formatUsd(cost.usdPerHour)} an hour) ` +
          `for ${plan.physicalGpus} ${plan.pool.gpuModel} GPU(s) on pool ${plan.pool.name}; ` +
          `the bill changes by ${formatUsd(cost.marginalUsdPerMonth)} a month`
        : `no known price for the machines of pool ${plan.pool.name}`;
      return {
        output: {
          summary,
          usdPerMonth: cost.usdPerMonth,
          usdPerHour: cost.usdPerHour,
          marginalUsdPerMonth: cost.marginalUsdPerMonth,
          priceKnown: cost.priceKnown,
          gpuModel: plan.pool.gpuModel,
          sharing: plan.sharing.mode,
          physicalGpus: plan.physicalGpus,
          pool: plan.pool.name,
          poolNodes: cost.pool.nodes,
          poolUsdPerMonth: cost.pool.usdPerMonth,
        },
      };
    },
  });
}
