import type { Config } from '@backstage/config';
import { readDurationFromConfig } from '@backstage/config';
import type { HumanDuration } from './readGpuBackendConfig';
import { readServerUrl } from './serverUrl';

/** One cluster's Prometheus. */
export interface PrometheusTarget {
  cluster: string;
  baseUrl: string;
  token?: string;
  timeoutMs: number;
}

/** `gpu.utilization`: where live data comes from, and over which window. */
export interface UtilizationConfig {
  /** A PromQL duration (`7d`). */
  window: string;
  refresh: HumanDuration;
  targets: PrometheusTarget[];
}

const PROMQL_DURATION = /^[1-9]\d*[smhdw]$/;
export const DEFAULT_WINDOW = '7d';
export const DEFAULT_UTILIZATION_REFRESH: HumanDuration = { minutes: 5 };
const DEFAULT_TIMEOUT_MS = 10_000;

function fail(key: string, rule: string): never {
  throw new Error(`gpu.utilization.${key}: ${rule}`);
}

/** An http(s) URL with no credentials in it (a token goes in `token`). */
function readBaseUrl(key: string, value: string): string {
  return readServerUrl(`gpu.utilization.${key}`, value, {
    credentials: 'must not carry credentials; give a token in `token` instead',
  });
}

/**
 * Reads `gpu.utilization`; undefined when it is not configured. A cluster
 * that is not a configured profile, a bad URL or window fails start-up.
 */
export function readUtilizationConfig(
  rootConfig: Config,
  clusterNames: string[],
): UtilizationConfig | undefined {
  const config = rootConfig.getOptionalConfig('gpu.utilization');
  if (!config) return undefined;
  const window = config.getOptionalString('window') ?? DEFAULT_WINDOW;
  if (!PROMQL_DURATION.test(window)) {
    fail('window', `"${window}" is not a PromQL duration such as 7d or 12h`);
  }
  const refresh = config.has('refresh')
    ? readDurationFromConfig(config, { key: 'refresh' })
    : DEFAULT_UTILIZATION_REFRESH;
  const clusters = config.getOptionalConfig('clusters');
  const targets: PrometheusTarget[] = [];
  for (const cluster of (clusters?.keys() ?? []).sort()) {
    if (!clusterNames.includes(cluster)) {
      fail(
        `clusters.${cluster}`,
        `"${cluster}" is not a cluster profile (gpu.clusters.profiles: ${clusterNames.join(', ')})`,
      );
    }
    const entry = clusters!.getConfig(cluster);
    // A cluster may have only its Kubernetes API (drift) and no Prometheus.
    if (!entry.has('prometheusUrl')) continue;
    const seconds = entry.getOptionalNumber('timeoutSeconds');
    if (seconds !== undefined && !(seconds > 0 && seconds <= 300)) {
      fail(`clusters.${cluster}.timeoutSeconds`, 'must be 1 to 300 seconds');
    }
    targets.push({
      cluster,
      baseUrl: readBaseUrl(
        `clusters.${cluster}.prometheusUrl`,
        entry.getString('prometheusUrl'),
      ),
      ...(entry.getOptionalString('token')
        ? { token: entry.getString('token') }
        : {}),
      timeoutMs: seconds !== undefined ? seconds * 1000 : DEFAULT_TIMEOUT_MS,
    });
  }
  return { window, refresh, targets };
}
