import type { Plan } from '../planner/types';
import {
  describeExistingWorkload,
  type ExistingWorkloadFacts,
} from './existing-workload-text';

const usd = (value: number) =>
  `$${value.toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })}`;

/** What one replica gets, in words: "1/4 of a T4", "MIG 3g.20gb", "2 GPUs". */
export function describeShare(plan: Plan): string {
  const { sharing } = plan;
  switch (sharing.mode) {
    case 'time-slicing':
      return `1 of ${sharing.slicesPerGpu} time slices of a GPU`;
    case 'mps':
      return `1 of ${sharing.slicesPerGpu} MPS clients of a GPU`;
    case 'mig':
      return `MIG instance ${sharing.migProfile}`;
    case 'dra':
      return 'a GPU claimed through DRA';
    default:
      return plan.resourcePerReplica === 1
        ? '1 whole GPU'
        : `${plan.resourcePerReplica} whole GPUs`;
  }
}

/**
 * A short readable summary of a plan, for terminals and the scaffolder task
 * page. Markdown-compatible (plain lines and `-` lists). `existing` adds a
 * line on the existing workload the request changes, as read from the
 * repository (its replicas now, its containers, the GPU container).
 */
export function formatPlanText(
  plan: Plan,
  options: {
    existing?: { workload: ExistingWorkloadFacts; gpuContainer: string };
  } = {},
): string {
  const { request } = plan;
  const existing = options.existing
    ? [
        `- ${describeExistingWorkload(options.existing.workload, request.spec.gpu.replicas, options.existing.gpuContainer)}`,
      ]
    : [];
  const lines = [
    `GPU plan for ${request.metadata.namespace}/${request.metadata.name} on cluster ${plan.cluster}`,
    '',
    `- Pool: ${plan.pool.name} (${plan.pool.reused ? 'reused' : 'new'}), GPU ${plan.pool.gpuModel}`,
    `- Instance types: ${plan.pool.instanceTypes.join(', ')}`,
    `- Sharing: ${plan.sharing.mode}; each replica gets ${describeShare(plan)}`,
    `- Resource: ${plan.resourceName} x ${plan.resourcePerReplica} per replica, ${request.spec.gpu.replicas} replicas`,
    ...existing,
    `- VRAM per replica: ${plan.perReplica.vramGiB} GiB requested, ${Math.floor(
      plan.perReplica.memoryMiB,
    )} MiB ${plan.perReplica.vramGuaranteed ? 'guaranteed' : 'NOT guaranteed (shared, no memory isolation)'}`,
    `- Nodes: ${plan.nodes.expected} x ${plan.nodes.instanceType} (${plan.nodes.slicesPerNode} ${plan.resourceName} per node)`,
    `- Cost: ${usd(plan.cost.usdPerHour)}/h, ${usd(plan.cost.usdPerMonth)}/month`,
  ];
  if (plan.warnings.length > 0) {
    lines.push('', 'Warnings:', ...plan.warnings.map(w => `- ${w}`));
  }
  return lines.join('\n');
}
