/**
 * Which pools of the repository can take a request: same GPU model and
 * sharing mode, a slice that covers the request (the pool's own time slices,
 * MPS clients or MIG profile — not necessarily the slicing a new pool would
 * get), the same resource, every capacity type the request accepts, and a
 * machine that holds a replica. The request then gets the pool's slicing.
 *
 * MIG: a pool of a LARGER profile qualifies too. Its instances are isolated
 * and hold the request, and when some are free (already paid for) using one
 * beats buying a new 8-GPU node for a pool of the smallest profile; the
 * ranking in plan.ts weighs that against the memory it wastes.
 */
import type { GpuModel, InstanceType } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import { formatRequestedGiB } from '../format/units';
import { uniformMigLayout } from '../mig/select';
import type { GpuRequest } from '../request/types';
import { scoreInstanceTypes, type InstanceChoice } from './chooseInstanceTypes';
import { gib, type ModeDecision, requestedMiB } from './modeDecision';
import { resourceOnCluster } from './gkeComputeClassPlan';
import { liveMigLayout } from '../capacity/poolUnits';
import { machinesPoolAllows } from './poolMachines';
import { onHandWrittenKey } from './handWrittenConfigs';
import { decideDra } from './sharingDra';
import { decideExclusive } from './sharingExclusive';
import { decideMig } from './sharingMig';
import { decideMps, mpsPinnedMiB } from './sharingMps';
import { nodeClassConfig, onNodeClassConfig } from './nodeClassConfig';
import { decideTimeSlicing, timeSliceMiB } from './sharingTimeSlicing';
import type { PoolState, RepoState } from './types';

/** A pool that can take the request, with the request planned on its slicing. */
export interface ReusablePool {
  pool: PoolState;
  decision: ModeDecision;
  /** The pool's machines that hold a replica, scored for this request. */
  choices: InstanceChoice[];
}

export type PoolVerdict = ReusablePool | { pool: PoolState; rejected: string };

export function isReusable(verdict: PoolVerdict): verdict is ReusablePool {
  return 'decision' in verdict;
}

export interface ReuseContext {
  request: GpuRequest;
  model: GpuModel;
  cluster: ClusterProfile;
  repoState: RepoState | undefined;
  /** The model's machines of the cluster's provider. */
  types: InstanceType[];
}

/** The request on the pool's slicing, or why the pool's slicing cannot take it. */
function slicingOnPool(
  pool: PoolState,
  ctx: ReuseContext,
): ModeDecision | string {
  const { request, model, cluster } = ctx;
  const vramMiB = requestedMiB(request.spec.gpu.vramGiB);
  const asked = formatRequestedGiB(request.spec.gpu.vramGiB);
  switch (pool.sharingMode) {
    case 'time-slicing': {
      const slices = pool.slicesPerGpu;
      const explicit = request.spec.gpu.slicesPerGpu;
      if (slices === undefined) return 'its slice count is unknown';
      if (explicit !== undefined && explicit !== slices) {
        return `${slices} slices per GPU; the request asks for slicesPerGpu ${explicit}`;
      }
      if (explicit === undefined && timeSliceMiB(model, slices) < vramMiB) {
        return `its ${slices} slices per GPU leave ${gib(timeSliceMiB(model, slices))} each, below the ${asked} asked`;
      }
      return decideTimeSlicing(request, model, { pool: pool.name, slices });
    }
    case 'mps': {
      const clients = pool.slicesPerGpu;
      if (clients === undefined) return 'its MPS client count is unknown';
      if (clients > model.mpsMaxReplicas) {
        return `${clients} MPS clients per GPU, more than a ${model.id} serves (${model.mpsMaxReplicas})`;
      }
      if (mpsPinnedMiB(model, clients) < vramMiB) {
        return `its ${clients} MPS clients per GPU get ${gib(mpsPinnedMiB(model, clients))} each, below the ${asked} asked`;
      }
      return decideMps(request, model, { pool: pool.name, clients });
    }
    case 'mig': {
      const profile = model.mig?.profiles.find(p => p.name === pool.migProfile);
      if (!profile) return 'its MIG profile is unknown';
      if (profile.memoryMiB < vramMiB) {
        return `its ${profile.name} instances hold ${gib(profile.memoryMiB)}, below the ${asked} asked`;
      }
      const live = liveMigLayout(pool, ctx.repoState);
      const layout =
        live && live[profile.name]
          ? live
          : uniformMigLayout(model, profile.name);
      return decideMig(request, model, cluster, {
        pool: pool.name,
        profile,
        layout,
      });
    }
    case 'dra':
      return decideDra(request, model, cluster);
    default:
      return decideExclusive(request, model);
  }
}

/**
 * Whether `pool` (of the request's GPU model) can take the request, and on
 * what slicing. Deterministic; never throws for a pool it cannot use.
 */
export function judgePool(pool: PoolState, ctx: ReuseContext): PoolVerdict {
  const { request } = ctx;
  const mode = request.spec.gpu.sharing;
  if (pool.sharingMode !== mode) {
    return {
      pool,
      rejected: `runs ${pool.sharingMode}; the request asks for ${mode}`,
    };
  }
  const onPool = slicingOnPool(pool, ctx);
  if (typeof onPool === 'string') return { pool, rejected: onPool };
  // A hand-written key the pool runs decides the resource its pods ask for.
  const fixed = nodeClassConfig(ctx.repoState?.gpuStack);
  if (
    fixed &&
    mode === 'time-slicing' &&
    pool.slicesPerGpu !== fixed.slicing.replicas
  ) {
    return {
      pool,
      rejected: `${pool.slicesPerGpu ?? 'an unknown count of'} slices per GPU; its nodes run the ${fixed.slicing.replicas} the node class's user data sets (${fixed.setting})`,
    };
  }
  const decision = onNodeClassConfig(
    onHandWrittenKey(onPool, pool, ctx.cluster, ctx.repoState),
    fixed,
  );
  if (
    pool.resourceName !== resourceOnCluster(decision.resourceName, ctx.cluster)
  ) {
    return {
      pool,
      rejected: `exposes ${pool.resourceName}; the request needs ${decision.resourceName}`,
    };
  }
  const missing = request.spec.capacityTypes.filter(
    t => !pool.capacityTypes.includes(t),
  );
  if (missing.length > 0) {
    return {
      pool,
      rejected: `allows ${pool.capacityTypes.join(', ') || 'no capacity type'}, not ${missing.join(', ')} the request asks for`,
    };
  }
  const machines = machinesPoolAllows(pool, ctx.types);
  if (pool.requirements && machines.length === 0) {
    return {
      pool,
      rejected: `its requirements allow none of the catalog's ${ctx.model.id} machines`,
    };
  }
  const choices = scoreInstanceTypes(machines, decision);
  if (choices.length === 0) {
    const names = pool.requirements
      ? machines.map(t => t.name)
      : pool.instanceTypes;
    return {
      pool,
      rejected: `none of its machines (${names.join(', ')}) holds a replica`,
    };
  }
  return { pool, decision, choices };
}
