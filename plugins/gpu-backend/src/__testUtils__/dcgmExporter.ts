/**
 * DCGM exporter series for tests, in the exporter's own format and labels
 * (dcgm-exporter internal/pkg/rendermetrics/render_metrics.go, v4.x; the
 * fields and types of etc/default-counters.csv): as OpenMetrics history for
 * `promtool` backfill, and served live at `/metrics` in the Prometheus text
 * format the exporter serves.
 */
import { createServer, type Server } from 'node:http';

export interface DcgmDevice {
  host: string;
  gpu: string;
  uuid: string;
  modelName: string;
  /** MIG instance (`1g.10gb`) and its id. */
  migProfile?: string;
  migId?: string;
  /** The pod the exporter maps to the device (with DCGM_EXPORTER_KUBERNETES). */
  pod?: { namespace: string; name: string; container: string };
  /** Values at a point in time (`hour` since the start of the history). */
  fbUsedMiB: (hour: number) => number;
  fbTotalMiB: number;
  /** Engine activity 0..1 (profiling); undefined: the field is not exported. */
  engineActive?: (hour: number) => number;
  /** GPU utilisation 0..100; not exported for MIG instances. */
  gpuUtil?: (hour: number) => number;
  /** SM activity 0..1 (profiling, DCGM_FI_PROF_SM_ACTIVE); undefined: not exported. */
  smActive?: (hour: number) => number;
}

function labelsOf(d: DcgmDevice): string {
  const labels: Record<string, string> = {
    gpu: d.gpu,
    UUID: d.uuid,
    pci_bus_id: `00000000:0${d.gpu}:00.0`,
    device: `nvidia${d.gpu}`,
    modelName: d.modelName,
    ...(d.migProfile
      ? { GPU_I_PROFILE: d.migProfile, GPU_I_ID: d.migId ?? '1' }
      : {}),
    Hostname: d.host,
    DCGM_FI_DRIVER_VERSION: '580.95.05',
    ...(d.pod
      ? {
          container: d.pod.container,
          namespace: d.pod.namespace,
          pod: d.pod.name,
        }
      : {}),
  };
  return Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
}

function lines(
  devices: DcgmDevice[],
  hour: number,
  timestamp?: number,
): Record<string, string[]> {
  const at = timestamp === undefined ? '' : ` ${timestamp}`;
  const out: Record<string, string[]> = {
    DCGM_FI_DEV_FB_USED: [],
    DCGM_FI_DEV_FB_FREE: [],
    DCGM_FI_DEV_GPU_UTIL: [],
    DCGM_FI_PROF_GR_ENGINE_ACTIVE: [],
    DCGM_FI_PROF_SM_ACTIVE: [],
  };
  for (const d of devices) {
    const labels = labelsOf(d);
    const used = d.fbUsedMiB(hour);
    out.DCGM_FI_DEV_FB_USED.push(`DCGM_FI_DEV_FB_USED{${labels}} ${used}${at}`);
    out.DCGM_FI_DEV_FB_FREE.push(
      `DCGM_FI_DEV_FB_FREE{${labels}} ${d.fbTotalMiB - used}${at}`,
    );
    if (d.gpuUtil && !d.migProfile) {
      out.DCGM_FI_DEV_GPU_UTIL.push(
        `DCGM_FI_DEV_GPU_UTIL{${labels}} ${d.gpuUtil(hour)}${at}`,
      );
    }
    if (d.engineActive) {
      out.DCGM_FI_PROF_GR_ENGINE_ACTIVE.push(
        `DCGM_FI_PROF_GR_ENGINE_ACTIVE{${labels}} ${d.engineActive(hour)}${at}`,
      );
    }
    if (d.smActive) {
      out.DCGM_FI_PROF_SM_ACTIVE.push(
        `DCGM_FI_PROF_SM_ACTIVE{${labels}} ${d.smActive(hour)}${at}`,
      );
    }
  }
  return out;
}

const HELP: Record<string, string> = {
  DCGM_FI_DEV_FB_USED: 'Framebuffer memory used (in MiB).',
  DCGM_FI_DEV_FB_FREE: 'Framebuffer memory free (in MiB).',
  DCGM_FI_DEV_GPU_UTIL: 'GPU utilization (in %).',
  DCGM_FI_PROF_GR_ENGINE_ACTIVE: 'Ratio of time the graphics engine is active.',
  DCGM_FI_PROF_SM_ACTIVE:
    'The ratio of cycles an SM has at least 1 warp assigned (in %).',
};

/** `hours` hourly samples ending at `endSeconds`, as OpenMetrics for `promtool`. */
export function dcgmHistory(
  devices: DcgmDevice[],
  hours: number,
  endSeconds: number,
): string {
  const out: string[] = [];
  for (const metric of Object.keys(HELP)) {
    out.push(`# HELP ${metric} ${HELP[metric]}`, `# TYPE ${metric} gauge`);
    // One series after another, each in time order (promtool's rule).
    for (const device of devices) {
      for (let hour = 0; hour < hours; hour++) {
        const t = endSeconds - (hours - 1 - hour) * 3600;
        out.push(...lines([device], hour, t)[metric]);
      }
    }
  }
  out.push('# EOF', '');
  return out.join('\n');
}

/** A live exporter serving the devices' values at `hour()` on `/metrics`. */
export async function startDcgmExporter(
  devices: DcgmDevice[],
  hour: () => number,
): Promise<{ target: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    const metrics = lines(devices, hour());
    const body = Object.entries(metrics)
      .flatMap(([metric, values]) =>
        values.length
          ? [
              `# HELP ${metric} ${HELP[metric]}`,
              `# TYPE ${metric} gauge`,
              ...values,
            ]
          : [],
      )
      .join('\n');
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(`${body}\n`);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    target: `127.0.0.1:${port}`,
    close: () => new Promise(resolve => server.close(() => resolve())),
  };
}
