/**
 * GPU feature discovery (GFD) and Node Feature Discovery (NFD) a standalone
 * `nvidia-device-plugin` release deploys (gpu-common `ChartFeatureDiscovery`),
 * so the bootstrap's GPU Operator deploys no second of either: two GFDs
 * label `nvidia.com/gpu.product` and `.replicas` each from its own plugin's
 * config, two NFDs label the same nodes from two masters.
 *
 * From k8s-device-plugin v0.18.0 `deployments/helm/nvidia-device-plugin/`:
 * `templates/daemonset-gfd.yml` renders GFD `if .Values.gfd.enabled` (Go's
 * truth: not false, empty or absent); `Chart.yaml` installs the
 * `node-feature-discovery` subchart (alias `nfd`) on the condition
 * `nfd.enabled,gfd.enabled`, of which Helm takes the first path that holds a
 * boolean (Helm v3 "Charts" docs, `condition`); `values.yaml` sets no
 * `nfd.enabled`, `gfd.enabled: false`, and NFD workers tolerating
 * `nvidia.com/gpu=present:NoSchedule` only.
 */
import type {
  ChartFeatureDiscovery,
  ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { toleratesGpuTaint } from '../../changes/bootstrap/gpuOperator/operatorSettings';
import { findHelmReleases } from '../../changes/bootstrap/helmReleases/findHelmReleases';
import type { HelmRelease } from '../../changes/bootstrap/helmReleases/helmRelease';
import { readNfdTaints } from '../../changes/bootstrap/helmReleases/nfdTaints';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import { readValue } from '../../changes/bootstrap/helmReleases/valuesLayer';
import type { RepoTree } from '../tree';
import { DEVICE_PLUGIN_CHART } from './devicePluginObjects';

/** The chart's NFD worker tolerations (v0.18.0 `values.yaml`, `nfd.worker.tolerations`). */
const CHART_NFD_WORKER_TOLERATIONS = [
  {
    key: 'node-role.kubernetes.io/master',
    operator: 'Equal',
    value: '',
    effect: 'NoSchedule',
  },
  {
    key: 'nvidia.com/gpu',
    operator: 'Equal',
    value: 'present',
    effect: 'NoSchedule',
  },
];

/** A value the release sets, `undefined` when it sets none, `hidden` when a source that may cannot be read. */
function setValue(release: HelmRelease, path: string[]): unknown {
  const reading = readValue(release.layers, path);
  if (reading.state === 'unknown') return 'hidden';
  return reading.state === 'set' ? reading.value : undefined;
}

/** What one release deploys besides its plugin; undefined when neither, or it cannot be told. */
function releaseDiscovery(
  release: HelmRelease,
  cluster: Pick<ClusterProfile, 'gpuTaintKey'>,
): ChartFeatureDiscovery | undefined {
  const gfdValue = setValue(release, ['gfd', 'enabled']);
  const nfdValue = setValue(release, ['nfd', 'enabled']);
  if (gfdValue === 'hidden' || nfdValue === 'hidden') return undefined;
  const gfd = Boolean(gfdValue);
  const nfd =
    typeof nfdValue === 'boolean'
      ? nfdValue
      : typeof gfdValue === 'boolean' && gfdValue;
  if (!gfd && !nfd) return undefined;
  const tolerations = readValue(release.layers, [
    'nfd',
    'worker',
    'tolerations',
  ]);
  const taints = readNfdTaints(release, 'nfd');
  return {
    file: release.file,
    setting: `the \`${DEVICE_PLUGIN_CHART}\` Helm chart installed by ${release.declaredBy} in \`${release.file}\``,
    gfd,
    nfd,
    nfdOnGpuNodes: toleratesGpuTaint(
      tolerations.state === 'set'
        ? tolerations.value
        : CHART_NFD_WORKER_TOLERATIONS,
      cluster.gpuTaintKey,
    ),
    ...(taints.applies !== undefined
      ? { nfdAppliesTaints: taints.applies }
      : {}),
    turnOnNfdTaints: taints.toTurnOn,
  };
}

/** The first standalone device-plugin release of `files` that deploys GFD or NFD. */
export async function chartFeatureDiscovery(
  tree: RepoTree,
  cluster: Pick<ClusterProfile, 'gpuTaintKey'>,
  files: RepositoryFile[],
): Promise<ChartFeatureDiscovery | undefined> {
  for (const release of await findHelmReleases(
    tree,
    files,
    DEVICE_PLUGIN_CHART,
  )) {
    const found = releaseDiscovery(release, cluster);
    if (found) return found;
  }
  return undefined;
}
