import type { z as zod } from 'zod/v3';

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
      gpuShare: z.number(),
    }),
  nodes: (z: Z) =>
    z.object({
      expected: z.number(),
      slicesPerNode: z.number(),
      instanceType: z.string(),
    }),
  physicalGpus: (z: Z) =>
    z.number().describe('Physical-GPU equivalents the request holds'),
  cost: (z: Z) => z.object({ usdPerHour: z.number(), usdPerMonth: z.number() }),
  warnings: (z: Z) => z.array(z.string()),
  explanation: (z: Z) => z.array(z.string()),
  plan: (z: Z) =>
    z
      .record(z.unknown())
      .describe('The whole plan JSON (gpu-gitops plan --json)'),
  summary: (z: Z) =>
    z.string().describe('Markdown summary of the plan for the task page'),
};
