/**
 * NVIDIA's DRA driver for GPUs as the repository deploys it, a GPU server
 * beside the device plugins (`deployedDevicePlugins`):
 *
 * - a release of its Helm chart, `dra-driver-nvidia-gpu`
 *   (kubernetes-sigs/dra-driver-nvidia-gpu v0.4.1 `deployments/helm/`), or
 *   `nvidia-dra-driver-gpu` as NVIDIA/k8s-dra-driver-gpu named it before;
 *   it publishes GPUs when `resources.gpus.enabled` (default true), which
 *   the chart renders only with `gpuResourcesEnabledOverride: true`
 *   (`templates/validation.yaml`: the driver must not share a node with the
 *   device plugin), and its kubelet plugin runs where `kubeletPlugin`'s
 *   `nodeSelector`, `affinity` and `tolerations` say (`values.yaml`: an NFD
 *   or `nvidia.com/gpu.present` label, the `nvidia.com/gpu` taint tolerated);
 * - its kubelet plugin DaemonSet, running the driver's image, placed by its
 *   pod template; it publishes GPUs when it runs the `gpus` container
 *   (`kubeletPlugin.containers.gpus`).
 */
import {
  podSchedulingOf,
  type DeployedDraDriver,
} from '@gpu-gitops/plugin-gpu-common';
import { findHelmReleases } from '../../changes/bootstrap/helmReleases/findHelmReleases';
import type { HelmRelease } from '../../changes/bootstrap/helmReleases/helmRelease';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import { readValue } from '../../changes/bootstrap/helmReleases/valuesLayer';
import type { RepoTree } from '../tree';
import { getIn } from '../yamlObjects';
import { objectsOf } from './devicePluginObjects';

/** The chart's names, current and former. */
export const DRA_DRIVER_CHARTS = [
  'dra-driver-nvidia-gpu',
  'nvidia-dra-driver-gpu',
] as const;

/** The driver's images (`registry.k8s.io/dra-driver-nvidia/dra-driver-nvidia-gpu`, `nvcr.io/nvidia/k8s-dra-driver-gpu`). */
const DRA_DRIVER_IMAGE = /(^|\/)(dra-driver-nvidia-gpu|k8s-dra-driver-gpu)(:|@|$)/;

/** The kubelet plugin's placement defaults (v0.4.1 `values.yaml`, `kubeletPlugin`). */
const KUBELET_PLUGIN_PLACEMENT: Record<string, unknown> = {
  nodeSelector: {},
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          ['feature.node.kubernetes.io/pci-10de.present', 'true'],
          ['feature.node.kubernetes.io/pci-0302_10de.present', 'true'],
          ['feature.node.kubernetes.io/pci-0300_10de.present', 'true'],
          ['feature.node.kubernetes.io/cpu-model.vendor_id', 'NVIDIA'],
          ['nvidia.com/gpu.present', 'true'],
        ].map(([key, value]) => ({
          matchExpressions: [{ key, operator: 'In', values: [value] }],
        })),
      },
    },
  },
  tolerations: [
    { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
  ],
};

/** A value as the release sets it; `fallback` when no source it can read does. */
function valueOr(release: HelmRelease, path: string[], fallback: unknown) {
  const reading = readValue(release.layers, path);
  return reading.state === 'set' ? reading.value : fallback;
}

function chartDriver(release: HelmRelease): DeployedDraDriver {
  const gpus = valueOr(release, ['resources', 'gpus', 'enabled'], true);
  const override = valueOr(release, ['gpuResourcesEnabledOverride'], false);
  const placement = (key: string) =>
    valueOr(release, ['kubeletPlugin', key], KUBELET_PLUGIN_PLACEMENT[key]);
  return {
    file: release.file,
    setting: `the \`${release.chart}\` Helm chart installed by ${release.declaredBy} in \`${release.file}\``,
    servesGpus: gpus !== false && override === true,
    placement: podSchedulingOf({
      nodeSelector: placement('nodeSelector'),
      affinity: placement('affinity'),
      tolerations: placement('tolerations'),
    }),
  };
}

function daemonSetDrivers(files: RepositoryFile[]): DeployedDraDriver[] {
  return objectsOf(files, /dra-driver/).flatMap(({ file, object }) => {
    if (object.kind !== 'DaemonSet') return [];
    const podSpec = getIn(object, 'spec', 'template', 'spec');
    const containers = getIn(podSpec, 'containers');
    if (!Array.isArray(containers)) return [];
    const driver = containers.filter(c =>
      DRA_DRIVER_IMAGE.test(String(getIn(c, 'image'))),
    );
    if (driver.length === 0) return [];
    return [
      {
        file,
        setting: `DaemonSet \`${String(object.metadata.name)}\` running the DRA driver's kubelet plugin, in \`${file}\``,
        servesGpus: driver.some(c => getIn(c, 'name') === 'gpus'),
        placement: podSchedulingOf(podSpec),
      },
    ];
  });
}

/** The DRA drivers `files` deploy. */
export async function draDrivers(
  tree: RepoTree,
  files: RepositoryFile[],
): Promise<DeployedDraDriver[]> {
  const releases: HelmRelease[] = [];
  for (const chart of DRA_DRIVER_CHARTS) {
    releases.push(...(await findHelmReleases(tree, files, chart)));
  }
  return [...releases.map(chartDriver), ...daemonSetDrivers(files)];
}
