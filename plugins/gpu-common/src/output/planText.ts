import {
  formatGiB,
  formatReplicaGpuShare,
  formatRequestedGiB,
} from '../format/units';
import type { Plan } from '../planner/types';
import { describeCost } from './costText';
import {
  describeExistingWorkload,
  type ExistingWorkloadFacts,
} from './existingWorkloadText';

/**
 * What one replica gets, in words: "1 of 4 time slices of a GPU", "MIG
 * instance 3g.20gb (50% of a GPU · 3/7 of its compute)", "2 whole GPUs".
 */
export function describeShare(plan: Plan): string {
  const { sharing } = plan;
  switch (sharing.mode) {
    case 'time-slicing':
      return `1 of ${sharing.slicesPerGpu} time slices of a GPU`;
    case 'mps':
      return `1 of ${sharing.slicesPerGpu} MPS clients of a GPU`;
    case 'mig':
      // What it holds and the compute it runs on differ: say both.
      return `MIG instance ${sharing.migProfile} (${formatReplicaGpuShare(plan.perReplica)})`;
    case 'dra':
      return sharing.slicesPerGpu
        ? `${plan.resourcePerReplica} of ${sharing.slicesPerGpu} DRA shares of a GPU`
        : 'a GPU claimed through DRA';
    default:
      return plan.resourcePerReplica === 1
        ? '1 whole GPU'
        : `${plan.resourcePerReplica} whole GPUs`;
  }
}

/** `3.5 GiB requested, 3.7 GiB guaranteed`: one unit, one decimal. */
export function describeVram(plan: Plan['perReplica']): string {
  return `${formatRequestedGiB(plan.vramGiB)} requested, ${formatGiB(plan.memoryMiB)} ${
    plan.vramGuaranteed
      ? 'guaranteed'
      : 'NOT guaranteed (shared, no memory isolation)'
  }`;
}

/**
 * A short readable summary of a plan, for terminals and the scaffolder task
 * page. Markdown-compatible (plain lines and `-` lists). `existing` adds a
 * line on the existing workload the request changes, as read from the
 * repository (its replicas now, its containers, the GPU container).
 *
 * @public
 */
export function formatPlanText(
  plan: Plan,
  options: {
    existing?: { workload: ExistingWorkloadFacts; gpuContainer: string };
  } = {},
): string {
  const { request } = plan;
  const id = `${request.metadata.namespace}/${request.metadata.name}`;
  const existing = options.existing
    ? [
        `- ${describeExistingWorkload(options.existing.workload, request.spec.gpu.replicas, options.existing.gpuContainer)}`,
      ]
    : [];
  const cost = describeCost(plan.cost, id, plan.resourceName);
  const lines = [
    `GPU plan for ${id} on cluster ${plan.cluster}`,
    '',
    `- Pool: ${plan.pool.name} (${plan.pool.reused ? 'reused' : 'new'}), GPU ${plan.pool.gpuModel}: ${plan.decisions.pool.reason}`,
    `- Instance types: ${plan.pool.instanceTypes.join(', ')}`,
    `- Sharing: ${plan.sharing.mode}; each replica gets ${describeShare(plan)}: ${plan.decisions.sharing.reason}`,
    `- Resource: ${plan.resourceName} x ${plan.resourcePerReplica} per replica, ${request.spec.gpu.replicas} replicas`,
    ...existing,
    `- VRAM per replica: ${describeVram(plan.perReplica)}`,
    `- Cost (attributed): ${cost.attributed}`,
    `- Cost (added to the bill): ${cost.marginal}`,
    `- Pool nodes: ${cost.pool}`,
  ];
  if (plan.warnings.length > 0) {
    lines.push('', 'Warnings:', ...plan.warnings.map(w => `- ${w}`));
  }
  return lines.join('\n');
}
