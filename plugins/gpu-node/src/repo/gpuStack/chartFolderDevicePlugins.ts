/**
 * NVIDIA's device plugin rendered by a team's own chart folder: a DaemonSet
 * template whose image comes from the chart's values (e.g.
 * chanzuckerberg/argo-helm-charts `karpenter-gpu-nodepool` 0.4.2:
 * `templates/nvidia-daemonset.yaml` renders
 * `{{ .Values.nvidiaDriver.image.repository }}`, and `values.yaml` sets it
 * to `nvcr.io/nvidia/k8s-device-plugin`). Its templates are not YAML until
 * Helm renders them, so the image is read from the values the release
 * renders them with, and the DaemonSet's placement from the values block
 * that holds the image (`nodeSelector`, `affinity`, `tolerations`, the
 * Helm convention such charts follow); its `enabled: false` keeps it off.
 * NVIDIA's own charts vendored as folders (`nvidia-device-plugin`,
 * `gpu-operator`, or an umbrella chart depending on one) are releases of
 * those charts (`localChartReleases.ts`), read beside the others.
 */
import {
  podSchedulingOf,
  type DeployedDevicePlugin,
} from '@gpu-gitops/plugin-gpu-common';
import { GPU_OPERATOR_CHART } from '../../changes/bootstrap/gpuOperator/gpuOperatorChart';
import { findLocalCharts } from '../../changes/bootstrap/helmReleases/findHelmReleases';
import type { LocalChart } from '../../changes/bootstrap/helmReleases/localChartReleases';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import {
  readValue,
  type ValuesLayer,
} from '../../changes/bootstrap/helmReleases/valuesLayer';
import type { RepoTree } from '../tree';
import { isPlainObject } from '../yamlObjects';
import {
  DEVICE_PLUGIN_CHART,
  DEVICE_PLUGIN_IMAGE,
} from './devicePluginObjects';

const NVIDIA_CHARTS = [DEVICE_PLUGIN_CHART, GPU_OPERATOR_CHART];

const isNvidiaChart = (chart: LocalChart) =>
  NVIDIA_CHARTS.includes(chart.name) ||
  chart.dependencies.some(d => NVIDIA_CHARTS.includes(d.name));

/** The values path of a string naming the device plugin's image, if any. */
function imagePath(values: unknown, path: string[] = []): string[] | undefined {
  if (typeof values === 'string') {
    return DEVICE_PLUGIN_IMAGE.test(values) ? path : undefined;
  }
  if (!isPlainObject(values)) return undefined;
  for (const [key, value] of Object.entries(values)) {
    const found = imagePath(value, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** The first value layer naming the image, and the path of the values block holding it. */
function imageBlock(
  layers: readonly ValuesLayer[],
): { layer: ValuesLayer; block: string[] } | undefined {
  for (const layer of layers) {
    if (typeof layer.content === 'string') continue;
    const path = imagePath(layer.content.values);
    if (!path) continue;
    const block = [...path];
    if (block[block.length - 1] === 'repository') block.pop();
    if (block[block.length - 1] === 'image') block.pop();
    return { layer, block };
  }
  return undefined;
}

async function templatesDaemonSet(tree: RepoTree, dir: string) {
  for (const path of await tree.listFiles(`${dir}/templates`)) {
    const text = await tree.readFile(path);
    if (text && /^kind:\s*DaemonSet\b/m.test(text)) return true;
  }
  return false;
}

/** Where the block's DaemonSet runs; undefined when its values place it nowhere in particular. */
function placementOf(layers: readonly ValuesLayer[], block: string[]) {
  const set: Record<string, unknown> = {};
  for (const key of ['nodeSelector', 'affinity', 'tolerations']) {
    const reading = readValue(layers, [...block, key]);
    if (reading.state === 'set') set[key] = reading.value;
  }
  return Object.keys(set).length > 0 ? podSchedulingOf(set) : undefined;
}

/** The device plugins the repository's own chart folders render, as `files` release them. */
export async function chartFolderDevicePlugins(
  tree: RepoTree,
  files: RepositoryFile[],
): Promise<DeployedDevicePlugin[]> {
  const plugins: DeployedDevicePlugin[] = [];
  for (const chart of await findLocalCharts(tree, files)) {
    if (isNvidiaChart(chart)) continue;
    const { layers, file, declaredBy } = chart.release;
    const found = imageBlock(layers);
    if (!found || !(await templatesDaemonSet(tree, chart.dir))) continue;
    const enabled = readValue(layers, [...found.block, 'enabled']);
    if (enabled.state === 'set' && enabled.value === false) continue;
    const placement = placementOf(layers, found.block);
    plugins.push({
      kind: 'standalone',
      readsNamedConfigs: false,
      file,
      setting: `NVIDIA's device plugin as the chart \`${chart.name}\` renders it (the \`k8s-device-plugin\` image in \`${found.block.join('.')}\` of ${found.layer.where}), by ${declaredBy} in \`${file}\``,
      ...(placement ? { placement } : {}),
    });
  }
  return plugins;
}
