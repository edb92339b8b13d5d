/**
 * Which pool the readers count a GPU workload of the repository on — the
 * planner's ledgers and quotas (gpu-node `readRepoState`), the import and
 * the allocation index with its GPU page — by where its pods can land
 * (`landingModel.ts`), not by the value of one selector: a pod may choose a
 * pool's nodes by any label they carry (an instance family, a team label of
 * the template, a Cluster API `node-labels` entry).
 *
 * One pool: that pool. Several: the one the product recorded (a pool whose
 * ledger names the workload, else the pool its selector names), else the
 * first by name, with a warning. None: no pool, with why.
 */
import { compareStrings } from '../text/compareStrings';
import type { PoolState, WorkloadState } from '../planner/types';
import { landingRefusalsText } from './landingRefusalsText';
import { landOn, type LandingModel } from './landingModel';

/**
 * The model of a cluster (or of every indexed cluster) with what the
 * product recorded of its workloads.
 *
 * @public
 */
export interface PlacementModel {
  landing: LandingModel;
  /** Request id (`<namespace>/<name>`) → the pools whose ledger names it. */
  ledgered: ReadonlyMap<string, readonly string[]>;
  /** Where the pools are, in the warnings' words: `of cluster dev`. */
  where: string;
  /**
   * The pool name a shape's name stands for, when they differ: the
   * allocation index lands among every cluster's nodes and keys a name
   * several clusters use by its cluster (`prod/gpu`). Absent: the same.
   */
  poolNameOf?: (shape: string) => string;
}

/**
 * The pools' ledgers indexed by the requests they name.
 *
 * @public
 */
export function ledgeredPools(
  pools: readonly PoolState[],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pool of pools) {
    for (const entry of pool.ledger ?? []) {
      out.set(entry.request, [...(out.get(entry.request) ?? []), pool.name]);
    }
  }
  return out;
}

/**
 * Where a workload is counted: `pool` (absent when its pods land nowhere),
 * every pool they can land on, and what to say when that is not one pool.
 *
 * @public
 */
export interface WorkloadPlacement {
  pool?: string;
  pools: string[];
  /** Only GPU nodes no pool of the product's describes take its pods: their names. */
  unpooled?: string[];
  warning?: string;
}

function what(workload: WorkloadState): string {
  return `GPU workload ${workload.id} (${workload.path})`;
}

function recordedAmong(
  model: PlacementModel,
  workload: WorkloadState,
  pools: readonly string[],
): { pool: string; why: string } | undefined {
  const ledgered = (model.ledgered.get(workload.id) ?? []).find(p =>
    pools.includes(p),
  );
  if (ledgered) return { pool: ledgered, why: 'its ledger names it' };
  const selected = pools.find(
    p => (model.poolNameOf?.(p) ?? p) === workload.pool,
  );
  if (workload.pool && selected) {
    return { pool: selected, why: 'its node selector names it' };
  }
  return undefined;
}

/**
 * Where `workload` is counted. A workload read without its scheduling stays
 * on the pool its selector names.
 *
 * @public
 */
export function placeWorkload(
  model: PlacementModel,
  workload: WorkloadState,
): WorkloadPlacement {
  if (!workload.scheduling) {
    return workload.pool
      ? { pool: workload.pool, pools: [workload.pool] }
      : { pools: [] };
  }
  const landing = landOn(model.landing, workload.scheduling);
  const landed = [...new Set(landing.pools)].sort(compareStrings);
  const pools = landed.filter(p => !model.landing.unpooled.has(p));
  const unpooled = landed.filter(p => model.landing.unpooled.has(p));
  // Only on GPU nodes no pool describes: the team's own, nothing to count.
  if (pools.length === 0 && unpooled.length > 0) return { pools, unpooled };
  const alsoUnpooled =
    unpooled.length > 0
      ? ` and on GPU nodes no pool ${model.where} describes (${unpooled.join(', ')})`
      : '';
  if (pools.length === 1 && !alsoUnpooled) return { pool: pools[0], pools };
  // Without any pool nothing is judged (its pools may be read elsewhere), as `validate` does.
  if (
    pools.length === 0 &&
    model.landing.shapes.length === model.landing.unpooled.size
  ) {
    return { pools };
  }
  if (pools.length === 0) {
    return {
      pools,
      warning: `${what(workload)}: its pods can land on no GPU pool ${model.where}: ${landingRefusalsText(landing.refused)}; it is counted on none`,
    };
  }
  const recorded = recordedAmong(model, workload, pools);
  const pool = recorded?.pool ?? pools[0];
  const why =
    recorded?.why ??
    (pools.length === 1 ? 'the only pool' : 'the first by name');
  return {
    pool,
    pools,
    warning: `${what(workload)}: its pods can land on pool${pools.length > 1 ? 's' : ''} ${pools.join(', ')} ${model.where}${alsoUnpooled}; it is counted on ${pool} (${why}): select one pool's label to say which`,
  };
}

/**
 * The workload with `pool` and `placementWarning` as `placeWorkload` says.
 *
 * @public
 */
export function placedWorkload(
  model: PlacementModel,
  workload: WorkloadState,
): WorkloadState {
  const placement = placeWorkload(model, workload);
  // Left out by destructuring, not `delete`: a deleted property turns the
  // object into a slow dictionary (100k of them in the allocation index).
  const {
    pool: _pool,
    placementWarning: _warning,
    unpooledNodes: _unpooled,
    ...rest
  } = workload;
  const placed: WorkloadState = rest;
  if (placement.pool) placed.pool = placement.pool;
  if (placement.unpooled) placed.unpooledNodes = placement.unpooled;
  if (placement.warning) placed.placementWarning = placement.warning;
  return placed;
}
