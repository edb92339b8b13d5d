/**
 * One allocation's live figures from the devices its pods ran on, and
 * what they mean. Exclusive GPUs and MIG instances are attributed per pod;
 * time-sliced and MPS GPUs are whole GPUs its replicas share with the
 * pool's other replicas, and the exporter's numbers are the GPU's — they
 * are shown as such, never split by a guess (dcgm-exporter maps pods only
 * for `nvidia.com/gpu` and `nvidia.com/mig-*` unless `--nvidia-resource-names`
 * lists the shared name, and `--kubernetes-virtual-gpus` repeats the device
 * figure per replica: kubernetes.go, issues #151, #307).
 */
import type {
  AllocationUtilization,
  GpuAllocation,
} from '@gpu-gitops/plugin-gpu-common';
import { isIdleActivity } from './dcgmQueries';
import { gpuKeyOf, type DeviceUsage } from './deviceUsage';
import { maxOf, meanOf } from './knownFigures';
import { isPodOf } from './podOwner';

const SHARED_MODES = new Set(['time-slicing', 'mps']);

const round = (value: number | undefined, digits: number) =>
  value === undefined ? undefined : Number(value.toFixed(digits));

export function allocationUtilization(
  allocation: Pick<
    GpuAllocation,
    'namespace' | 'name' | 'sharingMode' | 'vramMiBPerReplica'
  >,
  devices: DeviceUsage[],
  window: { duration: string; stepHours: number },
): AllocationUtilization {
  const own = devices.filter(
    d =>
      d.namespace === allocation.namespace &&
      d.pod !== undefined &&
      isPodOf(d.pod, allocation.name),
  );
  const shared = SHARED_MODES.has(allocation.sharingMode);
  const base = {
    window: window.duration,
    vramAllottedMiB: allocation.vramMiBPerReplica,
  };
  if (own.length === 0) {
    return {
      ...base,
      attribution: 'none',
      sources: 0,
      status: 'no-data',
      reason: shared
        ? `no DCGM series names its pods: the exporter maps pods to shared GPUs only when its --nvidia-resource-names lists the shared resource`
        : `no DCGM series of its pods in the last ${window.duration}: not running, or the exporter does not map pods (DCGM_EXPORTER_KUBERNETES)`,
    };
  }
  // Per GPU: one figure per device, whatever the replicas on it.
  const sources = shared
    ? [...new Map(own.map(d => [gpuKeyOf(d), d])).values()]
    : own;
  const vramPeakMiB = maxOf(sources.map(d => d.vramPeakMiB));
  const vramP95MiB = maxOf(sources.map(d => d.vramP95MiB));
  const active = meanOf(sources.map(d => d.active));
  const smActive = meanOf(sources.map(d => d.smActive));
  const idleHours =
    active === undefined
      ? undefined
      : meanOf(sources.map(d => (d.idleSamples ?? 0) * window.stepHours));
  const usage: AllocationUtilization = {
    ...base,
    attribution: shared ? 'per-gpu' : 'per-pod',
    sources: sources.length,
    ...(vramP95MiB !== undefined ? { vramP95MiB: round(vramP95MiB, 0) } : {}),
    ...(vramPeakMiB !== undefined
      ? { vramPeakMiB: round(vramPeakMiB, 0) }
      : {}),
    ...(active !== undefined ? { active: round(active, 4) } : {}),
    ...(smActive !== undefined ? { smActive: round(smActive, 4) } : {}),
    ...(idleHours !== undefined ? { idleHours: round(idleHours, 1) } : {}),
    status: 'ok',
    reason: shared
      ? 'figures of the whole GPUs its replicas share with the pool (not split per replica)'
      : 'figures of its own pods',
  };
  // A replica over what it was given: only where the figure is its own.
  if (
    !shared &&
    vramPeakMiB !== undefined &&
    vramPeakMiB > base.vramAllottedMiB
  ) {
    return {
      ...usage,
      status: 'oversubscribed',
      reason: `peak VRAM ${Math.round(vramPeakMiB)} MiB is above the ${base.vramAllottedMiB} MiB a replica was given`,
    };
  }
  if (active !== undefined && isIdleActivity(active)) {
    return {
      ...usage,
      status: 'idle',
      reason: `engine active ${(active * 100).toFixed(1)} % on average over ${window.duration}`,
    };
  }
  return usage;
}
