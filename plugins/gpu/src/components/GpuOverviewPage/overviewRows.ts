/**
 * The GPU page's rows, from `GET /pools` as it is: each figure is a field
 * of the response; the only arithmetic is summing dollars, done in cents
 * (every amount of the response is an exact number of them) so that the
 * sums equal the card's, the tab's and the API's to the cent.
 */
import {
  centsToUsd,
  usdToCents,
  type DriftFinding,
  type PoolSummary,
  type PoolsResponse,
} from '@gpu-gitops/plugin-gpu-common';
import { noLiveDataText } from '../format/noLiveDataText';

/** One pool of one cluster, as the pools table shows it. */
export interface PoolRow {
  id: string;
  cluster: string;
  pool: string;
  model: string;
  mode: string;
  resourceName: string;
  /** The NodePool's limit, in units of its resource: how far it may grow. */
  capacity?: number;
  /** Units its nodes offer (the pool's `cost.capacityUnits`), what `allocated` is counted against. */
  nodeUnits: number;
  allocated: number;
  busyGpus?: number;
  gpusSeen?: number;
  idleGpus?: number;
  usdPerMonth: number;
  /** The capacity nobody holds (the pool's `cost.idleUsdPerMonth`). */
  unallocatedUsdPerMonth: number;
  /** The measured idle GPUs' cost (the pool's `utilization.idleUsdPerMonth`). */
  idleUsdPerMonth?: number;
  /** Why there are no live figures, when its cluster said why. */
  noLiveData?: string;
  /** Where its cluster differs from Git for it (absent: not read). */
  drift?: DriftFinding[];
}

/** The requests of one owner (or of owners the viewer may not see). */
export interface TeamRow {
  id: string;
  /** The owner's ref; undefined for the requests the viewer may not see. */
  owner?: string;
  label: string;
  requests: number;
  /** The clusters its requests run on, sorted (where its quota is asked). */
  clusters: string[];
  usdPerMonth: number;
  /** The part of `usdPerMonth` its requests the card shows idle pay. */
  idleUsdPerMonth: number;
  /** Requests with a live status (idle or not); 0: the idle share is unknown. */
  measured: number;
}

export const NO_OWNER = 'no owner in the catalog';

export function poolRows(response: PoolsResponse): PoolRow[] {
  const statusOf = (cluster: string) =>
    response.live?.find(
      s => s.cluster === cluster && s.source === 'prometheus',
    );
  return response.pools.map(p => {
    const u = p.utilization;
    const status = statusOf(p.cluster);
    return {
      id: `${p.cluster}/${p.name}`,
      cluster: p.cluster,
      pool: p.name,
      model: p.gpuModel ?? 'any GPU',
      mode: p.sharingMode,
      resourceName: p.resourceName,
      ...(p.capacity !== undefined ? { capacity: p.capacity } : {}),
      nodeUnits: p.cost.capacityUnits,
      allocated: p.allocated,
      ...(u
        ? {
            busyGpus: u.busyGpus,
            gpusSeen: u.gpusSeen,
            idleGpus: u.idleGpus,
            idleUsdPerMonth: u.idleUsdPerMonth,
          }
        : {}),
      usdPerMonth: p.cost.usdPerMonth,
      unallocatedUsdPerMonth: p.cost.idleUsdPerMonth,
      ...(status && !status.available
        ? { noLiveData: noLiveDataText(status) }
        : {}),
      ...(p.drift ? { drift: p.drift } : {}),
    };
  });
}

/** Totals of the pools table, summed in cents. */
export function poolTotals(rows: PoolRow[]) {
  const cents = (pick: (r: PoolRow) => number | undefined) =>
    rows.reduce((sum, r) => sum + usdToCents(pick(r) ?? 0), 0);
  return {
    usdPerMonth: centsToUsd(cents(r => r.usdPerMonth)),
    unallocatedUsdPerMonth: centsToUsd(cents(r => r.unallocatedUsdPerMonth)),
    idleUsdPerMonth: centsToUsd(cents(r => r.idleUsdPerMonth)),
    idleGpus: rows.reduce((sum, r) => sum + (r.idleGpus ?? 0), 0),
  };
}

/**
 * Every request's attributed cost by the owner of its catalog entity (the
 * backend adds `owner` from the same catalog read that decides what the
 * viewer may see, so no second catalog round trip and no owner of a hidden
 * entity); the requests the viewer may not see form one row of their own,
 * so the rows add up to the pools' attributed cost.
 */
export function teamRows(pools: PoolSummary[]): TeamRow[] {
  const teams = new Map<
    string,
    {
      owner?: string;
      requests: number;
      clusters: Set<string>;
      cents: number;
      idleCents: number;
      measured: number;
    }
  >();
  const teamOf = (key: string, owner?: string) => {
    let team = teams.get(key);
    if (!team) {
      team = {
        ...(owner ? { owner } : {}),
        requests: 0,
        clusters: new Set(),
        cents: 0,
        idleCents: 0,
        measured: 0,
      };
      teams.set(key, team);
    }
    return team;
  };
  for (const pool of pools) {
    for (const c of pool.consumers) {
      const team = teamOf(c.owner ?? NO_OWNER, c.owner);
      team.requests += 1;
      team.clusters.add(pool.cluster);
      team.cents += usdToCents(c.usdPerMonth);
      if (c.utilizationStatus) team.measured += 1;
      if (c.utilizationStatus === 'idle') {
        team.idleCents += usdToCents(c.usdPerMonth);
      }
    }
    if (pool.otherConsumers) {
      const team = teamOf('');
      team.requests += pool.otherConsumers.count;
      team.clusters.add(pool.cluster);
      team.cents += usdToCents(pool.otherConsumers.usdPerMonth);
    }
  }
  return [...teams].map(([key, t]) => ({
    id: key || 'hidden',
    ...(t.owner ? { owner: t.owner } : {}),
    label: key || 'requests you may not see',
    requests: t.requests,
    clusters: [...t.clusters].sort(),
    usdPerMonth: centsToUsd(t.cents),
    idleUsdPerMonth: centsToUsd(t.idleCents),
    measured: t.measured,
  }));
}
