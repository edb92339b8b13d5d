import type { GpuRequest } from '../request/types';
import type { PoolState, RepoState, WorkloadState } from './types';
import { WHOLE_GPU_RESOURCE } from './mode-decision';

/** Static pools (DRA) may only limit `nodes` (KARPENTER.md §1). */
export const NODES_LIMIT = 'nodes';

export interface LimitInputs {
  request: GpuRequest;
  /** The pool being reused, if any. */
  existing?: PoolState;
  repoState?: RepoState;
  poolName: string;
  resourceName: string;
  resourcePerReplica: number;
  /** Replicas of this request per node of the reference instance type. */
  replicasPerNode: number;
  gpusPerNode: number;
  /** Limit nodes (static pool) instead of physical GPUs. */
  staticPool: boolean;
}

/**
 * NodePool limits. We limit PHYSICAL `nvidia.com/gpu`: Karpenter knows it for
 * every instance type from EC2 data, also when pods ask for a renamed or MIG
 * resource, and it works with or without NodeOverlays. The limit is what this
 * request needs (expected nodes x GPUs per node); a reused pool's limit is
 * raised by that much, minus what the repository already counts for this
 * very workload. A reused pool without a limit stays unlimited (adding one
 * would throttle the workloads already on it).
 */
export function poolLimits(inputs: LimitInputs): {
  limits: Record<string, number>;
  explanation: string[];
} {
  const key = inputs.staticPool ? NODES_LIMIT : WHOLE_GPU_RESOURCE;
  const perNode = inputs.staticPool ? 1 : inputs.gpusPerNode;
  const usableUnitsPerNode = inputs.replicasPerNode * inputs.resourcePerReplica;
  const contribution = (units: number) =>
    Math.ceil(units / usableUnitsPerNode) * perNode;
  const { replicas } = inputs.request.spec.gpu;
  const needed = contribution(replicas * inputs.resourcePerReplica);

  if (!inputs.existing) {
    return {
      limits: { [key]: needed },
      explanation: [
        inputs.staticPool
          ? `NodePool limit nodes: ${needed} (a static pool may only limit nodes).`
          : `NodePool limit ${key}: ${needed} (${needed / perNode} node(s) x ${perNode} GPU(s)); physical GPUs, which Karpenter knows for every instance type even when pods ask for ${inputs.resourceName}.`,
      ],
    };
  }

  const existing = inputs.existing;
  const current = currentLimit(existing, key);
  const limits: Record<string, number> = { ...(existing.limits ?? {}) };
  if (current === undefined) {
    return {
      limits,
      explanation: [
        `Reused pool ${existing.name} has no ${key} limit; it stays unlimited (a new limit would throttle the workloads already there).`,
      ],
    };
  }
  const previous = previousWorkload(inputs);
  if (previous && isSameNumbers(previous, inputs)) {
    limits[key] = Math.max(current, needed);
    return {
      limits,
      explanation: [
        `The repository already holds ${previous.id} with these numbers in ${existing.name}: its ${key} limit ${current} already counts it (not raised twice).`,
      ],
    };
  }
  const already = previous
    ? contribution(previous.replicas * previous.perReplica)
    : 0;
  const raised = Math.max(current - already + needed, needed);
  limits[key] = raised;
  return {
    limits,
    explanation: [
      previous
        ? `Reused pool ${existing.name}: ${key} limit ${current} - ${already} (previous ${previous.id}) + ${needed} = ${raised}.`
        : `Reused pool ${existing.name}: ${key} limit raised ${current} + ${needed} = ${raised}.`,
    ],
  };
}

function currentLimit(pool: PoolState, key: string): number | undefined {
  const fromMap = pool.limits?.[key];
  if (fromMap !== undefined) return fromMap;
  return pool.resourceName === key ? pool.limit : undefined;
}

/** The repository's version of this request's workload in this pool, if any. */
function previousWorkload(inputs: LimitInputs): WorkloadState | undefined {
  const { metadata } = inputs.request;
  const id = `${metadata.namespace}/${metadata.name}`;
  return inputs.repoState?.workloads.find(
    w =>
      w.id === id &&
      w.resourceName === inputs.resourceName &&
      (w.pool === undefined || w.pool === inputs.poolName),
  );
}

function isSameNumbers(workload: WorkloadState, inputs: LimitInputs): boolean {
  return (
    workload.replicas === inputs.request.spec.gpu.replicas &&
    workload.perReplica === inputs.resourcePerReplica
  );
}
