import type { Plan } from '../planner/types';

/**
 * The machine-readable view of a plan: the public contract shared by
 * `gpu-gitops plan --json`, the `gpu:plan` scaffolder action output and the
 * form's live preview. Field names are stable; add, never rename.
 */
export interface PlanJson {
  request: { name: string; namespace: string; owner: string };
  cluster: string;
  pool: {
    name: string;
    gpuModel: string;
    instanceTypes: string[];
    reused: boolean;
    capacityTypes: string[];
    limits: Record<string, number>;
  };
  sharing: {
    mode: string;
    slicesPerGpu?: number;
    migProfile?: string;
    migLayout?: Record<string, number>;
    migConfigName?: string;
    deviceConfigName?: string;
    mpsPinnedMemoryMiB?: number;
  };
  resourceName: string;
  resourcePerReplica: number;
  replicas: number;
  perReplica: {
    vramGiB: number;
    vramGuaranteed: boolean;
    memoryMiB: number;
    gpuShare: number;
  };
  nodes: { expected: number; slicesPerNode: number; instanceType: string };
  physicalGpus: number;
  cost: { usdPerHour: number; usdPerMonth: number };
  warnings: string[];
  explanation: string[];
}

export function planToJson(plan: Plan): PlanJson {
  const { request } = plan;
  return {
    request: {
      name: request.metadata.name,
      namespace: request.metadata.namespace,
      owner: request.spec.owner,
    },
    cluster: plan.cluster,
    pool: {
      name: plan.pool.name,
      gpuModel: plan.pool.gpuModel,
      instanceTypes: [...plan.pool.instanceTypes],
      reused: plan.pool.reused,
      capacityTypes: [...plan.pool.capacityTypes],
      limits: { ...plan.pool.limits },
    },
    sharing: { ...plan.sharing },
    resourceName: plan.resourceName,
    resourcePerReplica: plan.resourcePerReplica,
    replicas: request.spec.gpu.replicas,
    perReplica: { ...plan.perReplica },
    nodes: { ...plan.nodes },
    physicalGpus: plan.physicalGpus,
    cost: { ...plan.cost },
    warnings: [...plan.warnings],
    explanation: [...plan.explanation],
  };
}
