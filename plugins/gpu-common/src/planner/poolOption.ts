import type { LedgerEntry } from '../capacity/ledger';
import { poolCost, type PoolCost } from '../capacity/poolCost';
import type { InstanceType } from '../catalog/types';
import { draPoolIsStaticFor } from '../cluster/draAutoscaling';
import type { ClusterProfile } from '../cluster/types';
import { isGpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';
import type { CatalogIndex } from './catalogIndex';
import type { InstanceChoice } from './chooseInstanceTypes';
import type { ModeDecision } from './modeDecision';
import { poolFloorNodes } from './nodeFloor';
import { costOfPool } from './poolCost';
import {
  ledgerOf,
  poolLimits,
  poolWithout,
  type PoolCapacity,
} from './poolLimits';
import { unitsPerGpuOf } from '../capacity/poolUnits';
import { machinesOfPool } from './poolMachines';
import { sizingOfPool } from './poolSizing';
import { fixedPoolNodes } from './staticInventory';
import type { PoolState, RepoState } from './types';

/** A pool the request leaves by going to another one. */
export interface LeftPoolChange {
  pool: PoolState;
  capacity: PoolCapacity;
  /** Its price after minus before, in cents (0 or less). */
  deltaCents: number;
  /** The nodes its remaining requests need. */
  nodesAfter: number;
}

/** One place the request could go (a reused pool or a new one), fully sized and priced. */
export interface PoolOption {
  /** The pool reused; undefined for a new pool. */
  existing?: PoolState;
  poolName: string;
  decision: ModeDecision;
  /** The pool's machines that hold a replica, cheapest per unit first. */
  choices: InstanceChoice[];
  capacity: PoolCapacity;
  leftPools: LeftPoolChange[];
  /** The pool's nodes and their price after the change. */
  after: PoolCost;
  /** Its nodes before the change (0 for a new pool). */
  nodesBefore: number;
  /** What the change adds to the bill: this pool and the pools it leaves. */
  marginalCents: number;
  /** Memory a replica gets beyond what it asked, in MiB. */
  wasteMiB: number;
}

export interface OptionInputs {
  request: GpuRequest;
  /** The cluster planned on: its profile may fix a pool's nodes (static, by GPU). */
  cluster: ClusterProfile;
  index: CatalogIndex;
  repoState: RepoState | undefined;
  vramMiB: number;
  /** Every pool that holds the request now, without it (`leftPoolChanges`). */
  holding: LeftPoolChange[];
}

/**
 * Sizes and prices the request on one pool: its ledger and limits after the
 * change, the pools it leaves, and the bill before and after. Returns the
 * reason instead when the pool cannot hold it (a replica larger than any of
 * its nodes).
 */
export function evaluateOption(
  inputs: OptionInputs,
  target: {
    existing?: PoolState;
    poolName: string;
    decision: ModeDecision;
    choices: InstanceChoice[];
  },
): PoolOption | string {
  const { request, index, repoState, cluster } = inputs;
  const { existing, poolName, decision, choices } = target;
  const staticPool = draPoolIsStaticFor(
    {
      sharingMode: request.spec.gpu.sharing,
      migProfile: decision.sharing.migProfile,
    },
    cluster,
  );
  let capacity: PoolCapacity;
  try {
    capacity = poolLimits({
      request,
      existing,
      repoState,
      poolName,
      resourcePerReplica: decision.resourcePerReplica,
      sizing: {
        resourceName: decision.resourceName,
        unitsPerGpu: decision.unitsPerGpu,
        gpuCounts: choices.map(c => c.type.gpusPerNode),
        staticPool,
      },
    });
  } catch (error) {
    if (isGpuInputError(error))
      return error.issues[0]?.message ?? error.message;
    throw error;
  }
  // The same machines price the pool before and after, so the difference
  // is the request's alone; a reused pool's are the ones costOfPool prices
  // it on, so its release shows the price this plan reports.
  const machines: InstanceType[] = existing
    ? machinesOfPool(existing, index, cluster)
    : choices.map(c => c.type);
  const fixedNodes = fixedPoolNodes(cluster, machines);
  const floorNodes = poolFloorNodes(existing, cluster, machines);
  const price = (ledger: readonly LedgerEntry[], unitsPerGpu: number) =>
    poolCost(ledger, {
      unitsPerGpu,
      staticPool,
      machines,
      fixedNodes,
      floorNodes,
    });
  const after = price(capacity.ledger, decision.unitsPerGpu);
  const before = existing
    ? price(
        ledgerOf(existing, repoState).ledger,
        unitsPerGpuOf(existing, repoState),
      )
    : undefined;
  const leftPools = inputs.holding.filter(p => p.pool.name !== poolName);
  const marginalCents =
    after.totalCents -
    (before?.totalCents ?? 0) +
    leftPools.reduce((sum, p) => sum + p.deltaCents, 0);
  return {
    ...(existing ? { existing } : {}),
    poolName,
    decision,
    choices,
    capacity,
    leftPools,
    after,
    nodesBefore: before?.nodes ?? 0,
    marginalCents,
    wasteMiB: Math.max(0, decision.memoryMiB - inputs.vramMiB),
  };
}

/**
 * The pools that hold the request now, each with its ledger, limits and
 * price without it: the pools it leaves, whichever pool it goes to (but that
 * one). Computed once per plan.
 */
export function leftPoolChanges(
  request: GpuRequest,
  index: CatalogIndex,
  repoState: RepoState | undefined,
  cluster: ClusterProfile,
): LeftPoolChange[] {
  return (repoState?.pools ?? []).flatMap(pool => {
    const capacity = poolWithout(
      pool,
      request,
      repoState,
      sizingOfPool(pool, index, repoState, cluster),
    );
    if (!capacity) return [];
    const before = costOfPool(pool, repoState, index, undefined, cluster);
    const after = costOfPool(pool, repoState, index, capacity.ledger, cluster);
    return [
      {
        pool,
        capacity,
        deltaCents: after.totalCents - before.totalCents,
        nodesAfter: after.nodes,
      },
    ];
  });
}
