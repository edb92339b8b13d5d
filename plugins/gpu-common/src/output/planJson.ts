import type {
  Plan,
  PlanCost,
  PlanDecisions,
  PlanPrevious,
} from '../planner/types';

/**
 * The machine-readable view of a plan: the public contract shared by
 * `gpu-gitops plan --json`, the `gpu:plan` scaffolder action output and the
 * form's live preview. Field names are stable; add, never rename.
 *
 * @public
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
    /** Physical GPUs one replica holds: replicas × gpuShare = physicalGpus. */
    gpuShare: number;
    /** MIG only: the part of a GPU's compute its instance runs on. */
    computeShare?: number;
  };
  /** The pool's nodes after the change, on the machine they are priced on. */
  nodes: { expected: number; slicesPerNode: number; instanceType: string };
  physicalGpus: number;
  /** Attributed (`usdPerMonth`), marginal and the pool's nodes = shares + idle. */
  cost: PlanCost;
  /** What the request held before, when the repository holds it already (a resize). */
  previous?: PlanPrevious;
  /** Why this model, this slicing and this pool, with what was weighed. */
  decisions: PlanDecisions;
  warnings: string[];
  explanation: string[];
}

/** @public */
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
    cost: {
      ...plan.cost,
      pool: {
        ...plan.cost.pool,
        shares: plan.cost.pool.shares.map(share => ({ ...share })),
      },
    },
    ...(plan.previous
      ? {
          previous: {
            ...plan.previous,
            pools: plan.previous.pools.map(p => ({ ...p })),
          },
        }
      : {}),
    decisions: {
      model: copyDecision(plan.decisions.model),
      sharing: copyDecision(plan.decisions.sharing),
      pool: copyDecision(plan.decisions.pool),
    },
    warnings: [...plan.warnings],
    explanation: [...plan.explanation],
  };
}

function copyDecision(decision: Plan['decisions']['model']) {
  return {
    ...decision,
    considered: decision.considered.map(c => ({ ...c })),
  };
}
