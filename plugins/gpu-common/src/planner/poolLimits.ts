import {
  LedgerEntry,
  withLedgerEntry,
  withoutLedgerEntry,
} from '../capacity/ledger';
import {
  gpusNeeded,
  nodesNeeded,
  ReplicaGroup,
  referenceNodeShape,
} from '../capacity/poolNeed';
import { GpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';
import { WHOLE_GPU_RESOURCE } from './modeDecision';
import type { PoolState, RepoState, WorkloadState } from './types';

/** Static pools (DRA) may only limit `nodes` (Karpenter v1 NodePool CRD: `spec.replicas` excludes other limits). */
export const NODES_LIMIT = 'nodes';

/**
 *  How one pool is sized: its resource, what a GPU offers, its machines.
 *
 * @public
 */
export interface PoolSizing {
  resourceName: string;
  /** Units of the resource one physical GPU offers (slices, MIG instances, 1). */
  unitsPerGpu: number;
  /** GPUs per node of the instance types the pool may launch. */
  gpuCounts: number[];
  /** Limit nodes (static pool) instead of physical GPUs. */
  staticPool: boolean;
}

export interface LimitInputs {
  request: GpuRequest;
  /** The pool being reused, if any. */
  existing?: PoolState;
  repoState?: RepoState;
  poolName: string;
  resourcePerReplica: number;
  sizing: PoolSizing;
}

/** A pool's capacity after a change: its ledger and the limits derived from it. */
export interface PoolCapacity {
  ledger: LedgerEntry[];
  /** The floor a pool's limit never goes below (a hand-set limit from before the ledger). */
  limitFloor?: number;
  /** NodePool `spec.limits` (other resources the pool limits are kept). */
  limits: Record<string, number>;
  explanation: string[];
}

export function requestId(request: GpuRequest): string {
  return `${request.metadata.namespace}/${request.metadata.name}`;
}

function groupsOf(ledger: readonly LedgerEntry[]): ReplicaGroup[] {
  return ledger.map(e => ({
    replicas: e.replicas,
    unitsPerReplica: e.unitsPerReplica,
  }));
}

/**
 * The repository's workloads by pool, grouped once per workload list: a
 * plan asks for every pool's ledger (the request's previous holding, each
 * pool's cost), and filtering 20k workloads for each of 2k pools took
 * seconds. Keyed by the list itself; a list that grew since (the index
 * adds workloads while it builds a snapshot) is grouped again.
 */
const workloadsByPool = new WeakMap<
  readonly WorkloadState[],
  { length: number; byPool: Map<string, WorkloadState[]> }
>();

function workloadsOnPool(
  repoState: RepoState | undefined,
  pool: string,
): readonly WorkloadState[] {
  const workloads = repoState?.workloads;
  if (!workloads) return [];
  let grouped = workloadsByPool.get(workloads);
  if (!grouped || grouped.length !== workloads.length) {
    const byPool = new Map<string, WorkloadState[]>();
    for (const w of workloads) {
      if (!w.pool) continue;
      const list = byPool.get(w.pool);
      if (list) list.push(w);
      else byPool.set(w.pool, [w]);
    }
    grouped = { length: workloads.length, byPool };
    workloadsByPool.set(workloads, grouped);
  }
  return grouped.byPool.get(pool) ?? [];
}

/**
 * The pool's ledger before this change. A pool written before ledgers
 * existed (or a hand-written one) has none: its ledger starts from the GPU
 * workloads the repository puts on it, so they keep their capacity.
 */
export function ledgerOf(
  pool: PoolState,
  repoState: RepoState | undefined,
): { ledger: LedgerEntry[]; migrated: boolean } {
  if (pool.ledger) return { ledger: [...pool.ledger], migrated: false };
  const ledger = workloadsOnPool(repoState, pool.name)
    .filter(w => w.resourceName === pool.resourceName)
    .map(w => ({
      request: w.id,
      replicas: w.replicas,
      unitsPerReplica: w.perReplica,
    }));
  return { ledger, migrated: true };
}

/** The limit key and the need of a ledger, in whole nodes of the pool's reference shape. */
function needOf(
  ledger: readonly LedgerEntry[],
  sizing: PoolSizing,
  poolName: string,
): { key: string; need: number; shapeText: string } {
  const groups = groupsOf(ledger);
  const largest = Math.max(0, ...groups.map(g => g.unitsPerReplica));
  const shape = referenceNodeShape(
    sizing.gpuCounts,
    sizing.unitsPerGpu,
    largest,
  );
  if (!shape) {
    throw new GpuInputError([
      {
        path: 'spec.gpu',
        rule: 'exceeds-node',
        message: `a replica of ${largest} ${sizing.resourceName} does not fit any machine of pool ${poolName}`,
      },
    ]);
  }
  const shapeText = `${shape.unitsPerNode} ${sizing.resourceName} per ${shape.gpusPerNode}-GPU node`;
  if (sizing.staticPool) {
    return {
      key: NODES_LIMIT,
      need: nodesNeeded(groups, shape.unitsPerNode),
      shapeText,
    };
  }
  return {
    key: WHOLE_GPU_RESOURCE,
    need: gpusNeeded(groups, shape),
    shapeText,
  };
}

function describeLedger(ledger: readonly LedgerEntry[]): string {
  const units = ledger.reduce((s, e) => s + e.replicas * e.unitsPerReplica, 0);
  return `${ledger.length} request(s), ${units} unit(s)`;
}

/**
 * NodePool limits, derived from the pool's ledger (see `capacity/ledger.ts`):
 * the physical `nvidia.com/gpu` (Karpenter knows it for every instance type,
 * also when pods ask for a renamed or MIG resource) that whole nodes of the
 * pool's most granular machine need to hold every replica of every request
 * on the pool, and never less than a hand-set floor. So the limit rises only
 * by what is missing, falls when requests leave, and two changes to one pool
 * can never both be merged without a conflict on the ledger line.
 *
 * A reused pool without a GPU limit stays unlimited (adding one would
 * throttle the workloads already there); its ledger is still kept.
 */
export function poolLimits(inputs: LimitInputs): PoolCapacity {
  const { request, existing, sizing, poolName } = inputs;
  const id = requestId(request);
  const entry: LedgerEntry = {
    request: id,
    replicas: request.spec.gpu.replicas,
    unitsPerReplica: inputs.resourcePerReplica,
  };
  if (!existing) {
    const ledger = [entry];
    const { key, need, shapeText } = needOf(ledger, sizing, poolName);
    return {
      ledger,
      limits: { [key]: need },
      explanation: [
        sizing.staticPool
          ? `NodePool limit nodes: ${need} (a static pool may only limit nodes).`
          : `NodePool limit ${key}: ${need}, whole nodes for ${entry.replicas} replica(s) at ${shapeText}; physical GPUs, which Karpenter knows for every instance type even when pods ask for ${sizing.resourceName}.`,
      ],
    };
  }

  const before = ledgerOf(existing, inputs.repoState);
  const ledger = withLedgerEntry(before.ledger, entry);
  const { key, need, shapeText } = needOf(ledger, sizing, poolName);
  const current = currentLimit(existing, key);
  const limits: Record<string, number> = { ...(existing.limits ?? {}) };
  if (current === undefined) {
    return {
      ledger,
      // A pool sized by nodes keeps its floor (planner/nodeFloor.ts).
      ...(existing.limitFloor !== undefined
        ? { limitFloor: existing.limitFloor }
        : {}),
      limits,
      explanation: [
        `Reused pool ${existing.name} has no ${key} limit; it stays unlimited (a new limit would throttle the workloads already there).`,
      ],
    };
  }
  // A pool without a ledger keeps the limit it was given by hand as a floor.
  const floor =
    existing.limitFloor ??
    (before.migrated && current > needOf(before.ledger, sizing, poolName).need
      ? current
      : undefined);
  const limit = Math.max(floor ?? 0, need);
  limits[key] = limit;
  const why =
    floor !== undefined && floor >= need
      ? `its floor ${floor} already covers the ${need} needed`
      : `whole nodes at ${shapeText}`;
  return {
    ledger,
    ...(floor !== undefined ? { limitFloor: floor } : {}),
    limits,
    explanation: [
      limit === current
        ? `Reused pool ${existing.name}: ${key} limit stays ${current} for ${describeLedger(ledger)} (${why}).`
        : `Reused pool ${existing.name}: ${key} limit ${current} -> ${limit} for ${describeLedger(ledger)} (${why}).`,
    ],
  };
}

/** A pool this request leaves (it moved to another pool): its ledger and limits without it. */
export function poolWithout(
  pool: PoolState,
  request: GpuRequest,
  repoState: RepoState | undefined,
  sizing: PoolSizing,
): PoolCapacity | undefined {
  const id = requestId(request);
  const before = ledgerOf(pool, repoState);
  if (!before.ledger.some(e => e.request === id)) return undefined;
  const ledger = withoutLedgerEntry(before.ledger, id);
  const limits: Record<string, number> = { ...(pool.limits ?? {}) };
  const key = sizing.staticPool ? NODES_LIMIT : WHOLE_GPU_RESOURCE;
  const current = currentLimit(pool, key);
  if (current === undefined) {
    return { ledger, limits, explanation: [] };
  }
  const { need } = needOf(ledger, sizing, pool.name);
  const floor = pool.limitFloor;
  limits[key] = Math.max(floor ?? 0, need);
  return {
    ledger,
    ...(floor !== undefined ? { limitFloor: floor } : {}),
    limits,
    explanation: [
      `${id} leaves pool ${pool.name}: ${key} limit ${current} -> ${limits[key]}.`,
    ],
  };
}

function currentLimit(pool: PoolState, key: string): number | undefined {
  const fromMap = pool.limits?.[key];
  if (fromMap !== undefined) return fromMap;
  return pool.resourceName === key ? pool.limit : undefined;
}

/**
 * The limit a pool's ledger derives, as the planner writes it: the key it
 * limits (`nvidia.com/gpu`, or `nodes` for a static pool), what its requests
 * need in whole nodes of its reference shape, and that or its floor.
 * For checks and reports: a merged repository must hold exactly this.
 *
 * @public
 */
export function derivedPoolLimit(
  pool: PoolState,
  sizing: PoolSizing,
  repoState: RepoState | undefined,
): { key: string; need: number; limit: number } {
  const { ledger } = ledgerOf(pool, repoState);
  const { key, need } = needOf(ledger, sizing, pool.name);
  return { key, need, limit: Math.max(pool.limitFloor ?? 0, need) };
}
