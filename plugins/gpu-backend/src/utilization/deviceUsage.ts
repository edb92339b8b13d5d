/**
 * The answers of the fixed queries, merged per device (a GPU, or a MIG
 * instance) and the pod the exporter saw on it.
 */
import type { PromSample } from './prometheusClient';
import { KEY_LABELS, type DcgmQueries } from './dcgmQueries';

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
  /** Mean SM activity over the window (0–1), where the exporter reports it. */
  smActive?: number;
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

/**
 * The series' device and pod, as one string. Concatenated by hand: a
 * refresh keys six answers of tens of thousands of series each.
 */
function keyOf(labels: Record<string, string>): string {
  let key = '';
  for (const label of KEY_LABELS) key += `${labels[label] ?? ''}|`;
  return key;
}

/** A device's labels, only those the series has (never an empty field). */
function deviceOf(labels: Record<string, string>): DeviceUsage {
  const found: DeviceUsage = {};
  const host = labels.Hostname || labels.hostname;
  if (host) found.host = host;
  if (labels.gpu) found.gpu = labels.gpu;
  if (labels.UUID) found.uuid = labels.UUID;
  if (labels.modelName) found.modelName = labels.modelName;
  if (labels.GPU_I_PROFILE) found.migProfile = labels.GPU_I_PROFILE;
  if (labels.GPU_I_ID) found.migInstance = labels.GPU_I_ID;
  if (labels.namespace) found.namespace = labels.namespace;
  if (labels.pod) found.pod = labels.pod;
  if (labels.container) found.container = labels.container;
  return found;
}

export function mergeDeviceUsage(
  answers: Record<keyof DcgmQueries, PromSample[]>,
): DeviceUsage[] {
  const devices = new Map<string, DeviceUsage>();
  const device = (labels: Record<string, string>) => {
    const key = keyOf(labels);
    let found = devices.get(key);
    if (!found) {
      found = deviceOf(labels);
      devices.set(key, found);
    }
    return found;
  };
  const set = (
    samples: PromSample[],
    field:
      | 'vramPeakMiB'
      | 'vramP95MiB'
      | 'vramTotalMiB'
      | 'idleSamples'
      | 'smActive',
  ) => {
    for (const s of samples) {
      if (Number.isFinite(s.value)) device(s.labels)[field] = s.value;
    }
  };
  set(answers.vramPeakMiB, 'vramPeakMiB');
  set(answers.vramP95MiB, 'vramP95MiB');
  set(answers.vramTotalMiB, 'vramTotalMiB');
  set(answers.idleSamples, 'idleSamples');
  set(answers.smActive, 'smActive');
  // Profiling (works per MIG instance) wins over GPU_UTIL where both exist.
  for (const s of answers.gpuUtil) {
    if (Number.isFinite(s.value)) device(s.labels).active = s.value;
  }
  for (const s of answers.engineActive) {
    if (Number.isFinite(s.value)) device(s.labels).active = s.value;
  }
  return [...devices.values()];
}
