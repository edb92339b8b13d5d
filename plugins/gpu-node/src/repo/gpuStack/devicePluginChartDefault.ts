/**
 * The config a release of NVIDIA's standalone `nvidia-device-plugin` chart
 * applies to every node without a `nvidia.com/device-plugin.config` label,
 * when the release carries its configs itself (`config.map`, no external
 * `config.name`). The chart picks it as its `nvidia-device-plugin.hasDefaultConfig`
 * helper says (k8s-device-plugin v0.17.0
 * `deployments/helm/nvidia-device-plugin/templates/_helpers.tpl` and
 * `values.yaml`): `config.default` when set, else, by the default
 * `config.fallbackStrategies: ["named", "single"]`, the entry named
 * `default`, else the only entry. A public EKS recipe sets exactly that — one
 * `default` entry that time-slices every GPU 10 ways — so every GPU node
 * shares its GPUs, whatever the product's pools say.
 */
import { parse } from 'yaml';
import {
  clusterReleaseFiles,
  findHelmReleases,
} from '../../changes/bootstrap/helmReleases/findHelmReleases';
import type { HelmRelease } from '../../changes/bootstrap/helmReleases/helmRelease';
import { readValue } from '../../changes/bootstrap/helmReleases/valuesLayer';
import {
  deviceConfigSharing,
  sharedResource,
  type NodeSharing,
} from '../../import/sharing/nodeSharing';
import type { LayoutInput } from '../../layout/layout';
import type { RepoTree } from '../tree';
import { getIn, isPlainObject } from '../yamlObjects';
import { DEVICE_PLUGIN_CHART } from './devicePluginObjects';

const valueOf = (release: HelmRelease, path: string[]) => {
  const reading = readValue(release.layers, path);
  return reading.state === 'set' ? reading.value : undefined;
};

/**
 * Where a release's plugin takes its configs from, read once through the
 * values layers: an external ConfigMap (`config.name`), the chart's own
 * from `config.map`, none (an empty or unset map: the plugin's flags
 * alone), or `hidden` when a value source that may set either cannot be
 * read. The chart refuses both set at once (k8s-device-plugin v0.18.0
 * `deployments/helm/nvidia-device-plugin/templates/validation.yml`).
 */
type ChartConfigSource =
  | { kind: 'hidden' }
  | { kind: 'external'; name: string }
  | { kind: 'none' }
  | { kind: 'map'; map: Record<string, unknown> };

function chartConfigSource(release: HelmRelease): ChartConfigSource {
  const name = readValue(release.layers, ['config', 'name']);
  const map = readValue(release.layers, ['config', 'map']);
  if (name.state === 'unknown' || map.state === 'unknown') {
    return { kind: 'hidden' };
  }
  if (name.state === 'set' && typeof name.value === 'string' && name.value) {
    return { kind: 'external', name: name.value };
  }
  if (map.state === 'chart-default') return { kind: 'none' };
  if (!isPlainObject(map.value)) return { kind: 'hidden' };
  return Object.keys(map.value).length === 0
    ? { kind: 'none' }
    : { kind: 'map', map: map.value };
}

/** The key of `config.map` the plugin applies by default, if any. */
function defaultKey(
  release: HelmRelease,
  map: Record<string, unknown>,
): string | undefined {
  const named = valueOf(release, ['config', 'default']);
  if (typeof named === 'string' && named !== '') return named;
  if ('default' in map) return 'default';
  const keys = Object.keys(map);
  return keys.length === 1 ? keys[0] : undefined;
}

/** The config `map` holds under `key`, parsed; undefined when it cannot be read. */
function parsedEntry(
  map: Record<string, unknown>,
  key: string | undefined,
): { key: string; config: unknown } | undefined {
  const text = key === undefined ? undefined : map[key];
  if (key === undefined || typeof text !== 'string') return undefined;
  try {
    return { key, config: parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * The release's default config as it carries it in `config.map`, parsed,
 * with its key; undefined when it reads an external ConfigMap
 * (`config.name`), carries none, or its values cannot be read.
 */
function chartDefaultConfig(
  release: HelmRelease,
  source: ChartConfigSource = chartConfigSource(release),
): { key: string; config: unknown } | undefined {
  if (source.kind !== 'map') return undefined;
  return parsedEntry(source.map, defaultKey(release, source.map));
}

/**
 * How the release's default config shares each GPU; undefined when it gives
 * whole GPUs, reads an external ConfigMap (`config.name`), or its values
 * cannot be read.
 */
export function devicePluginChartDefaultSharing(
  release: HelmRelease,
): NodeSharing | undefined {
  const read = chartDefaultConfig(release);
  if (!read) return undefined;
  return deviceConfigSharing(
    read.config,
    `its default config \`${read.key}\` (\`config.map\` of ${release.declaredBy} in \`${release.file}\`), which applies to every GPU node without a nvidia.com/device-plugin.config label`,
  );
}

/**
 * The MIG strategy the release's plugin runs on every node whatever the
 * named configs say (`OtherDevicePlugin.migStrategy`): the chart's
 * `migStrategy` value, which its DaemonSet passes as `MIG_STRATEGY` and which
 * overrides a config's `flags.migStrategy` (k8s-device-plugin v0.18.0
 * `templates/daemonset-device-plugin.yml`, `cmd/nvidia-device-plugin/main.go`);
 * else, for a plugin reading no named config, its own default config's, else
 * `none` when it carries no config at all; undefined when the named configs
 * decide or it cannot be told (hidden values, an external ConfigMap).
 */
export function devicePluginChartMigStrategy(
  release: HelmRelease,
  readsNamedConfigs: boolean,
): string | undefined {
  const chartValue = readValue(release.layers, ['migStrategy']);
  if (chartValue.state === 'set' && typeof chartValue.value === 'string') {
    return chartValue.value;
  }
  if (chartValue.state === 'unknown' || readsNamedConfigs) return undefined;
  const source = chartConfigSource(release);
  if (source.kind === 'none') return 'none';
  const read = chartDefaultConfig(release, source);
  if (!read) return undefined;
  const own = getIn(read.config, 'flags', 'migStrategy');
  return typeof own === 'string' ? own : 'none';
}

/** What a sharing reads as in a reviewer's words, e.g. "time-slicing, 10 per GPU, as `nvidia.com/gpu`". */
export function describeSharing(sharing: NodeSharing): string {
  const per =
    sharing.slicesPerGpu === undefined
      ? ''
      : `, ${sharing.slicesPerGpu} per GPU`;
  return `${sharing.mode}${per}, as \`${sharedResource(sharing)}\``;
}

/**
 * How the cluster's standalone device-plugin release (if any) shares the
 * GPUs of every node by default: what the import reads beside the GPU
 * Operator's default config.
 */
export async function standaloneDefaultSharing(
  tree: RepoTree,
  layout: LayoutInput | undefined,
  cluster: { name: string },
): Promise<NodeSharing | undefined> {
  const files = await clusterReleaseFiles(tree, layout, cluster.name);
  const [release] = await findHelmReleases(tree, files, DEVICE_PLUGIN_CHART);
  return release && devicePluginChartDefaultSharing(release);
}
