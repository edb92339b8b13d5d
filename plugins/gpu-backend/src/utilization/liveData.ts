/**
 * Live data per cluster: each refresh asks every configured Prometheus the
 * same fixed queries (dcgmQueries.ts) — never one per entity — and keeps
 * the merged devices, or why there are none. The allocation route reads
 * what the last refresh left, so a page never waits for Prometheus, and a
 * cluster that cannot be reached shows intent with the reason.
 */
import type {
  AllocationUtilization,
  GpuAllocation,
  LiveDataStatus,
  PoolUtilization,
} from '@gpu-gitops/plugin-gpu-common';
import type { UtilizationConfig } from '../config/readUtilizationConfig';
import { ClusterReadings } from '../live/clusterReadings';
import { allocationUtilization } from './allocationUtilization';
import { dcgmQueries, type DcgmQueries } from './dcgmQueries';
import { mergeDeviceUsage, type DeviceUsage } from './deviceUsage';
import {
  poolUtilization,
  type PoolGpuPrice,
  type PoolWorkload,
} from './poolUtilization';
import { PrometheusClient, type PromSample } from './prometheusClient';

/** Idle time is counted in hours of the window (each subquery step one hour). */
const STEP = '1h';
const STEP_HOURS = 1;

/** A cluster's devices, and those with pods by namespace (an allocation looks in its own). */
interface ClusterDevices {
  devices: DeviceUsage[];
  byNamespace: Map<string, DeviceUsage[]>;
  /**
   * Pool figures per workload list: a list belongs to one index snapshot,
   * whose pools' prices it fixes, so GET /pools groups 40k devices once per
   * read and snapshot, not per request.
   */
  pools: WeakMap<readonly PoolWorkload[], Map<string, PoolUtilization>>;
}

function indexByNamespace(devices: DeviceUsage[]): ClusterDevices {
  const byNamespace = new Map<string, DeviceUsage[]>();
  for (const d of devices) {
    if (!d.namespace) continue;
    const list = byNamespace.get(d.namespace);
    if (list) list.push(d);
    else byNamespace.set(d.namespace, [d]);
  }
  return { devices, byNamespace, pools: new WeakMap() };
}

export class LiveData {
  private readonly readings: ClusterReadings<ClusterDevices>;
  private readonly clients: Map<string, PrometheusClient>;
  private readonly queries: DcgmQueries;

  constructor(
    private readonly config: UtilizationConfig,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.clients = new Map(
      config.targets.map(t => [t.cluster, new PrometheusClient(t)]),
    );
    this.readings = new ClusterReadings(
      config.targets.map(t => t.cluster),
      'prometheus',
    );
    this.queries = dcgmQueries(config.window, STEP);
  }

  /** Asks every cluster's Prometheus once; a failing cluster keeps its reason. */
  async refresh(): Promise<LiveDataStatus[]> {
    const at = this.now();
    return this.readings.readAll(at, async cluster => {
      const client = this.clients.get(cluster)!;
      const entries = await Promise.all(
        (Object.keys(this.queries) as (keyof DcgmQueries)[]).map(
          async key =>
            [key, await client.query(this.queries[key], at)] as const,
        ),
      );
      const answers = Object.fromEntries(entries) as Record<
        keyof DcgmQueries,
        PromSample[]
      >;
      return indexByNamespace(mergeDeviceUsage(answers));
    });
  }

  statuses(): LiveDataStatus[] {
    return this.readings.statuses();
  }

  /** The status of each of these clusters (configured ones only). */
  statusOf(clusters: string[]): LiveDataStatus[] {
    return this.readings.statusOf(clusters);
  }

  /** The allocation's live figures; undefined when its cluster has none. */
  utilizationOf(allocation: GpuAllocation): AllocationUtilization | undefined {
    const data = this.readings.dataOf(allocation.cluster);
    if (!data) return undefined;
    return allocationUtilization(
      allocation,
      data.byNamespace.get(allocation.namespace) ?? [],
      { duration: this.config.window, stepHours: STEP_HOURS },
    );
  }

  /**
   * The live figures of a cluster's pools (name to price per GPU), from the
   * cluster's workloads; undefined when the cluster has no live data.
   */
  poolUtilizationOf(
    cluster: string,
    workloads: readonly PoolWorkload[],
    pools: ReadonlyMap<string, PoolGpuPrice | undefined>,
  ): Map<string, PoolUtilization> | undefined {
    const data = this.readings.dataOf(cluster);
    if (!data) return undefined;
    let figures = data.pools.get(workloads);
    if (!figures) {
      figures = poolUtilization(
        data.devices,
        workloads,
        pools,
        this.config.window,
      );
      data.pools.set(workloads, figures);
    }
    return figures;
  }
}
