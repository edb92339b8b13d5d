/**
 * Per pool live figures: which GPUs the pool's pods ran on and whether they
 * worked. The exporter's series name a host, a GPU and the pod on it, never
 * the node's pool, so a GPU is the pool's only when a pod of one of the
 * pool's workloads ran on it (podOwner.ts, the repository's workloads and
 * their pool). Busy or idle is the per-device mean engine activity of
 * deviceUsage.ts under the allocation figures' rule (isIdleActivity).
 */
import {
  centsToUsd,
  type PoolUtilization,
} from '@gpu-gitops/plugin-gpu-common';
import { isIdleActivity } from './dcgmQueries';
import { deviceKeyOf, gpuKeyOf, type DeviceUsage } from './deviceUsage';
import { maxOf, sumOf } from './knownFigures';
import { ownerNamesOf } from './podOwner';

/** A workload of the repository and the pool it is pinned to. */
export interface PoolWorkload {
  namespace: string;
  name: string;
  pool?: string;
}

/** What one GPU of a pool costs: its node's price over the node's GPUs. */
export interface PoolGpuPrice {
  nodeCents: number;
  gpusPerNode: number;
}

/** A pool's GPUs by activity, and its devices' VRAM peaks and sizes. */
interface PoolFigures {
  busy: number;
  idle: number;
  vram: number[];
  total: number[];
}

const noFigures = (): PoolFigures => ({
  busy: 0,
  idle: 0,
  vram: [],
  total: [],
});

/** The pool a device's pod belongs to, by its owner workload. */
function poolOfPod(
  device: DeviceUsage,
  poolByWorkload: Map<string, string>,
): string | undefined {
  if (!device.namespace || !device.pod) return undefined;
  for (const name of ownerNamesOf(device.pod)) {
    const pool = poolByWorkload.get(`${device.namespace}/${name}`);
    if (pool) return pool;
  }
  return undefined;
}

/**
 * The live figures of each of `pools` (name to its price per GPU): a pool
 * none of whose pods the exporter saw has zeros, as nothing of it was seen.
 */
export function poolUtilization(
  devices: DeviceUsage[],
  workloads: readonly PoolWorkload[],
  pools: ReadonlyMap<string, PoolGpuPrice | undefined>,
  window: string,
): Map<string, PoolUtilization> {
  const poolByWorkload = new Map<string, string>();
  for (const w of workloads) {
    if (w.pool) poolByWorkload.set(`${w.namespace}/${w.name}`, w.pool);
  }
  // Every series of a GPU, and the pools whose pods ran on it.
  const gpus = new Map<string, { series: DeviceUsage[]; pools: Set<string> }>();
  for (const d of devices) {
    const key = gpuKeyOf(d);
    let gpu = gpus.get(key);
    if (!gpu) {
      gpu = { series: [], pools: new Set() };
      gpus.set(key, gpu);
    }
    gpu.series.push(d);
    const pool = poolOfPod(d, poolByWorkload);
    if (pool) gpu.pools.add(pool);
  }

  const byPool = new Map<string, PoolFigures>();
  for (const { series, pools: ranOn } of gpus.values()) {
    // A GPU is on one node of one pool: pods of two pools on it mean the
    // names misled, so it is left out rather than counted twice.
    if (ranOn.size !== 1) continue;
    const [pool] = ranOn;
    // The GPU's series without a pod (hours nobody ran) are its own too.
    const active = maxOf(series.map(s => s.active));
    if (active === undefined) continue;
    const figures = byPool.get(pool) ?? noFigures();
    if (isIdleActivity(active)) figures.idle += 1;
    else figures.busy += 1;
    // VRAM per device (the GPU, or each MIG instance): the highest of the
    // series of the pods that ran on it, which repeat the device's figure.
    const perDevice = new Map<string, DeviceUsage[]>();
    for (const s of series) {
      const key = deviceKeyOf(s);
      const list = perDevice.get(key);
      if (list) list.push(s);
      else perDevice.set(key, [s]);
    }
    for (const list of perDevice.values()) {
      const peak = maxOf(list.map(s => s.vramPeakMiB));
      const total = maxOf(list.map(s => s.vramTotalMiB));
      if (peak !== undefined) figures.vram.push(peak);
      if (total !== undefined) figures.total.push(total);
    }
    byPool.set(pool, figures);
  }

  const out = new Map<string, PoolUtilization>();
  for (const [pool, price] of pools) {
    const figures = byPool.get(pool) ?? noFigures();
    // Cents of whole idle GPUs at the node's price per GPU, rounded once.
    const idleCents =
      price && price.gpusPerNode > 0
        ? Math.round((figures.idle * price.nodeCents) / price.gpusPerNode)
        : 0;
    const vramUsedMiB = sumOf(figures.vram);
    const vramTotalMiB = sumOf(figures.total);
    out.set(pool, {
      window,
      gpusSeen: figures.busy + figures.idle,
      busyGpus: figures.busy,
      idleGpus: figures.idle,
      ...(vramUsedMiB !== undefined
        ? { vramUsedMiB: Math.round(vramUsedMiB) }
        : {}),
      ...(vramTotalMiB !== undefined
        ? { vramTotalMiB: Math.round(vramTotalMiB) }
        : {}),
      idleUsdPerMonth: centsToUsd(idleCents),
    });
  }
  return out;
}
