import type { z as zod } from 'zod/v3';
import type { JsonValue } from '@backstage/types';

type Z = typeof zod;

/**
 * Output schema of the plan: the same fields as `gpu-gitops plan --json`
 * (gpu-common `PlanJson`), one output per top-level key so templates can
 * write `steps.plan.output.pool.name`, plus the markdown `summary`.
 */
export const planOutputProperties = {
  cluster: (z: Z) => z.string().describe('Target cluster'),
  pool: (z: Z) =>
    z
      .object({
        name: z.string(),
        gpuModel: z.string(),
        instanceTypes: z.array(z.string()),
        reused: z.boolean(),
        capacityTypes: z.array(z.string()),
        limits: z.record(z.number()),
      })
      .describe('The Karpenter NodePool the request lands on'),
  sharing: (z: Z) =>
    z
      .object({
        mode: z.string(),
        slicesPerGpu: z.number().optional(),
        migProfile: z.string().optional(),
        migLayout: z.record(z.number()).optional(),
        migConfigName: z.string().optional(),
        deviceConfigName: z.string().optional(),
        mpsPinnedMemoryMiB: z.number().optional(),
      })
      .describe('How GPUs are shared'),
  resourceName: (z: Z) =>
    z.string().describe('Extended resource each replica requests'),
  resourcePerReplica: (z: Z) => z.number(),
  replicas: (z: Z) => z.number(),
  perReplica: (z: Z) =>
    z.object({
      vramGiB: z.number(),
      vramGuaranteed: z.boolean(),
      memoryMiB: z.number(),
      gpuShare: z
        .number()
        .describe(
          'Physical GPUs one replica holds (what its quota and cost count): replicas × gpuShare = physicalGpus',
        ),
      computeShare: z
        .number()
        .optional()
        .describe(
          "MIG only: the part of a GPU's compute one replica's instance runs on (1g.10gb: 1/7)",
        ),
    }),
  nodes: (z: Z) =>
    z.object({
      expected: z.number(),
      slicesPerNode: z.number(),
      instanceType: z.string(),
    }),
  physicalGpus: (z: Z) =>
    z.number().describe('Physical-GPU equivalents the request holds'),
  cost: (z: Z) =>
    z
      .object({
        usdPerMonth: z
          .number()
          .describe(
            "Attributed: the request's share of its pool's nodes, by the units it holds (USD per month)",
          ),
        usdPerHour: z.number().describe('usdPerMonth per hour (÷ 730)'),
        marginalUsdPerMonth: z
          .number()
          .describe(
            'Marginal: what the change adds to the bill, the pools after minus before (0 when it fits capacity already paid for)',
          ),
        priceKnown: z
          .boolean()
          .describe("False when the pool's machine has no known price"),
        pool: z
          .object({
            name: z.string(),
            nodes: z.number(),
            nodesBefore: z.number().optional(),
            instanceType: z.string().optional(),
            nodeUsdPerMonth: z.number(),
            usdPerMonth: z
              .number()
              .describe(
                "The pool's nodes: every share plus idleUsdPerMonth, to the cent",
              ),
            idleUsdPerMonth: z
              .number()
              .describe('What the capacity nobody holds costs'),
            capacityUnits: z.number(),
            allocatedUnits: z.number(),
            idleUnits: z.number(),
            shares: z.array(
              z.object({
                request: z.string(),
                units: z.number(),
                usdPerMonth: z.number(),
              }),
            ),
          })
          .describe("The request's pool after the change, and who pays for it"),
      })
      .describe(
        'One cost model (gpu-common capacity/poolCost.ts): the card, the PR body and POST /plan show the same figures',
      ),
  warnings: (z: Z) => z.array(z.string()),
  explanation: (z: Z) => z.array(z.string()),
  plan: (z: Z) =>
    // JSON values (not `unknown`), so the action's published type meets
    // the scaffolder's JsonObject output constraint in an adopter's tsc.
    z
      .record(z.custom<JsonValue>())
      .describe(
        'The whole plan JSON (gpu-gitops plan --json), with `decisions`: why this model, slicing and pool, and the options weighed',
      ),
  summary: (z: Z) =>
    z.string().describe('Markdown summary of the plan for the task page'),
};
