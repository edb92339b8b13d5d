/**
 * The answers of the fixed queries, merged per device (a GPU, or a MIG
 * instance) and the pod the exporter saw on it.
 */
import type { PromSample } from './prometheusClient';
import { DEVICE_LABELS, type DcgmQueries } from './dcgmQueries';

export interface DeviceUsage {
  host?: string;
  gpu?: string;
  uuid?: string;
  modelName?: string;
  /** MIG instance profile, e.g. `1g.10gb`, and the instance's id on its GPU. */
  migProfile?: string;
  migInstance?: string;
  namespace?: string;
  pod?: string;
  container?: string;
  vramPeakMiB?: number;
  vramP95MiB?: number;
  vramTotalMiB?: number;
  /** Mean engine activity over the window (0–1): profiling when present, else GPU_UTIL. */
  active?: number;
  /** Samples (of `step`) in which the engine was idle. */
  idleSamples?: number;
}

/** The physical GPU a series is of: its host and UUID (its index when the UUID is missing). */
export function gpuKeyOf(device: DeviceUsage): string {
  return `${device.host}|${device.uuid ?? device.gpu}`;
}

/** The device a series is of (a GPU, or one MIG instance of it), whatever pod ran on it. */
export function deviceKeyOf(device: DeviceUsage): string {
  return `${gpuKeyOf(device)}|${device.migInstance ?? ''}`;
}

function keyOf(labels: Record<string, string>): string {
  return DEVICE_LABELS.map(l => labels[l] ?? '').join('|');
}

export function mergeDeviceUsage(
  answers: Record<keyof DcgmQueries, PromSample[]>,
): DeviceUsage[] {
  const devices = new Map<string, DeviceUsage>();
  const device = (labels: Record<string, string>) => {
    const key = keyOf(labels);
    let found = devices.get(key);
    if (!found) {
      found = {
        host: labels.Hostname ?? labels.hostname,
        gpu: labels.gpu,
        uuid: labels.UUID,
        modelName: labels.modelName,
        migProfile: labels.GPU_I_PROFILE,
        migInstance: labels.GPU_I_ID,
        namespace: labels.namespace,
        pod: labels.pod,
        container: labels.container,
      };
      for (const [k, v] of Object.entries(found)) {
        if (v === undefined || v === '')
          delete (found as Record<string, unknown>)[k];
      }
      devices.set(key, found);
    }
    return found;
  };
  const set = (
    samples: PromSample[],
    field: 'vramPeakMiB' | 'vramP95MiB' | 'vramTotalMiB' | 'idleSamples',
  ) => {
    for (const s of samples) {
      if (Number.isFinite(s.value)) device(s.labels)[field] = s.value;
    }
  };
  set(answers.vramPeakMiB, 'vramPeakMiB');
  set(answers.vramP95MiB, 'vramP95MiB');
  set(answers.vramTotalMiB, 'vramTotalMiB');
  set(answers.idleSamples, 'idleSamples');
  // Profiling (works per MIG instance) wins over GPU_UTIL where both exist.
  for (const s of answers.gpuUtil) {
    if (Number.isFinite(s.value)) device(s.labels).active = s.value;
  }
  for (const s of answers.engineActive) {
    if (Number.isFinite(s.value)) device(s.labels).active = s.value;
  }
  return [...devices.values()];
}
