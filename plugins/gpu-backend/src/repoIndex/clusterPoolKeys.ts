/**
 * The allocation index lands every workload among every indexed cluster's
 * GPU nodes (its cluster is what it lands on), so the landing model holds
 * the shapes of all clusters in one list, named by pool. Two clusters may
 * use one name (a team's own `gpu` NodePool in prod, the product's `gpu`
 * pool in dev): such a name is keyed by its cluster (`prod/gpu`; neither a
 * cluster nor a Kubernetes name holds a `/`), so a workload that lands on
 * one is counted on that cluster's pool, and one cluster's hand-written
 * NodePool never makes the other's product pool "no pool of the product's".
 */
import type { PoolNodeShape, PoolState } from '@gpu-gitops/plugin-gpu-common';

/** One cluster's part of the index's landing model. */
export interface ClusterShapes {
  cluster: string;
  shapes: readonly PoolNodeShape[];
  pools: readonly PoolState[];
}

/** A landing model's pool key, and the cluster and pool it stands for. */
export interface KeyedPool {
  cluster: string;
  pool: string;
}

/** Every cluster's shapes and ledgers under keys unique across clusters. */
export interface KeyedClusterShapes {
  shapes: PoolNodeShape[];
  /** key → its cluster and pool name. */
  owners: Map<string, KeyedPool>;
  /** Request id → the keys of the pools whose ledger names it. */
  ledgered: Map<string, string[]>;
}

/** The names used by more than one of `clusters`. */
function sharedNames(clusters: readonly ClusterShapes[]): Set<string> {
  const seen = new Map<string, string>();
  const shared = new Set<string>();
  for (const { cluster, shapes, pools } of clusters) {
    for (const name of [...shapes.map(s => s.pool), ...pools.map(p => p.name)]) {
      const first = seen.get(name);
      if (first === undefined) seen.set(name, cluster);
      else if (first !== cluster) shared.add(name);
    }
  }
  return shared;
}

/**
 * The clusters' shapes and pool ledgers keyed (see the file comment); a
 * name only one cluster uses keeps it as its key.
 */
export function keyedClusterShapes(
  clusters: readonly ClusterShapes[],
): KeyedClusterShapes {
  const shared = sharedNames(clusters);
  const out: KeyedClusterShapes = {
    shapes: [],
    owners: new Map(),
    ledgered: new Map(),
  };
  for (const { cluster, shapes, pools } of clusters) {
    const keyOf = (pool: string) =>
      shared.has(pool) ? `${cluster}/${pool}` : pool;
    for (const shape of shapes) {
      out.shapes.push({ ...shape, pool: keyOf(shape.pool) });
    }
    for (const pool of [...shapes.map(s => s.pool), ...pools.map(p => p.name)]) {
      out.owners.set(keyOf(pool), { cluster, pool });
    }
    for (const pool of pools) {
      for (const entry of pool.ledger ?? []) {
        const keys = out.ledgered.get(entry.request) ?? [];
        out.ledgered.set(entry.request, [...keys, keyOf(pool.name)]);
      }
    }
  }
  return out;
}
