/**
 * The fixed PromQL a refresh asks each cluster's Prometheus, whatever the
 * number of entities: one query per figure, grouped by the DCGM exporter's
 * own labels (dcgm-exporter internal/pkg/rendermetrics/render_metrics.go,
 * v4.x: `gpu`, `UUID`, `modelName`, `Hostname` — `hostname` on main since
 * PR #655 —, `GPU_I_PROFILE`/`GPU_I_ID` for MIG instances, and
 * `namespace`/`pod`/`container` when the exporter maps pods). Field names
 * and units from dcgm-exporter etc/default-counters.csv:
 * `DCGM_FI_DEV_FB_USED`/`FB_FREE` in MiB, `DCGM_FI_PROF_GR_ENGINE_ACTIVE` and
 * `DCGM_FI_PROF_SM_ACTIVE` ratios (reported per MIG instance too), `DCGM_FI_DEV_GPU_UTIL` a percentage
 * (not reported for MIG instances).
 */

/** The labels that tell one device (or MIG instance) and the pod on it apart. */
export const KEY_LABELS = [
  'namespace',
  'pod',
  'Hostname',
  'hostname',
  'gpu',
  'UUID',
  'GPU_I_ID',
] as const;

/**
 * The labels the first figure is kept by: the key and what describes the
 * device. The other figures carry the key only — a refresh reads tens of
 * thousands of series six times, and the labels are most of the bytes.
 */
export const DEVICE_LABELS = [
  ...KEY_LABELS,
  'container',
  'modelName',
  'GPU_I_PROFILE',
] as const;

/** Below this engine activity a GPU counts as idle (5 %). */
export const IDLE_BELOW = 0.05;

/**
 * Whether a mean engine activity counts as idle: the one rule the
 * allocation figures, the pool figures and the idle-hours query share.
 */
export function isIdleActivity(active: number): boolean {
  return active < IDLE_BELOW;
}

export interface DcgmQueries {
  /** Asked first: its series describe each device (DEVICE_LABELS). */
  vramPeakMiB: string;
  vramP95MiB: string;
  vramTotalMiB: string;
  engineActive: string;
  /** Where the exporter has it (a profiling field, off in its default counters). */
  smActive: string;
  gpuUtil: string;
  idleSamples: string;
}

/**
 * The queries for a window (`7d`); `step` is the resolution idle time is
 * counted in (`1h`: each idle sample is one idle hour).
 */
export function dcgmQueries(window: string, step: string): DcgmQueries {
  const described = `max by (${DEVICE_LABELS.join(', ')})`;
  const by = `max by (${KEY_LABELS.join(', ')})`;
  return {
    vramPeakMiB: `${described} (max_over_time(DCGM_FI_DEV_FB_USED[${window}]))`,
    vramP95MiB: `${by} (quantile_over_time(0.95, DCGM_FI_DEV_FB_USED[${window}]))`,
    vramTotalMiB: `${by} (max_over_time((DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE)[${window}:${step}]))`,
    engineActive: `${by} (avg_over_time(DCGM_FI_PROF_GR_ENGINE_ACTIVE[${window}]))`,
    smActive: `${by} (avg_over_time(DCGM_FI_PROF_SM_ACTIVE[${window}]))`,
    gpuUtil: `${by} (avg_over_time(DCGM_FI_DEV_GPU_UTIL[${window}])) / 100`,
    idleSamples: `${by} (count_over_time((DCGM_FI_PROF_GR_ENGINE_ACTIVE < ${IDLE_BELOW})[${window}:${step}]))`,
  };
}
