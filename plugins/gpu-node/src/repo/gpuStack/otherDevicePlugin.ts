/**
 * The device plugin serving the cluster's GPU nodes when it is not the GPU
 * Operator's, as the repository declares it:
 *
 * - Bottlerocket's built-in one: the node class the cluster profile's pools
 *   launch with (`nodeClass`) is an EC2NodeClass of Bottlerocket
 *   (`amiFamily: Bottlerocket`, or an `amiSelectorTerms` alias
 *   `bottlerocket@…`): its NVIDIA variants run their own device plugin,
 *   configured by `[settings.kubelet-device-plugins.nvidia]` in the user
 *   data (bottlerocket-os/bottlerocket `sources/settings-extensions/kubelet-device-plugins`);
 * - a release of NVIDIA's `nvidia-device-plugin` Helm chart (any form
 *   `findHelmReleases` reads); it switches configs per node on
 *   `nvidia.com/device-plugin.config` when `config.name` names the profile's
 *   ConfigMap (k8s-device-plugin v0.20.0
 *   `deployments/helm/nvidia-device-plugin/values.yaml`, `config.name`);
 * - its static manifest (`deployments/static/nvidia-device-plugin.yml`): a
 *   DaemonSet running the `k8s-device-plugin` image, which reads no
 *   ConfigMap of named configs.
 */
import type {
  ClusterProfile,
  OtherDevicePlugin,
} from '@gpu-gitops/plugin-gpu-common';
import { findHelmReleases } from '../../changes/bootstrap/helmReleases/findHelmReleases';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import { readValue } from '../../changes/bootstrap/helmReleases/valuesLayer';
import type { RepoTree } from '../tree';
import {
  describeSharing,
  devicePluginChartDefaultSharing,
} from './devicePluginChartDefault';
import {
  asKubernetesObject,
  getIn,
  parseYamlDocuments,
  type PlainObject,
} from '../yamlObjects';

/** NVIDIA's standalone device-plugin chart (https://nvidia.github.io/k8s-device-plugin). */
export const DEVICE_PLUGIN_CHART = 'nvidia-device-plugin';

/** The image of NVIDIA's device plugin (`nvcr.io/nvidia/k8s-device-plugin`). */
export const DEVICE_PLUGIN_IMAGE = /(^|\/)k8s-device-plugin(:|@|$)/;

export interface FileObject {
  file: string;
  object: PlainObject & { kind: string; metadata: PlainObject };
}

export function objectsOf(
  files: RepositoryFile[],
  mention: RegExp,
): FileObject[] {
  return files.flatMap(({ path, text }) => {
    if (!mention.test(text)) return [];
    return parseYamlDocuments(path, text).documents.flatMap(doc => {
      const object = asKubernetesObject(doc.value);
      return object ? [{ file: path, object }] : [];
    });
  });
}

/** Why an EC2NodeClass runs Bottlerocket, as written; undefined when it does not. */
export function bottlerocketSetting(object: PlainObject): string | undefined {
  if (getIn(object, 'spec', 'amiFamily') === 'Bottlerocket') {
    return '`amiFamily: Bottlerocket`';
  }
  const terms = getIn(object, 'spec', 'amiSelectorTerms');
  const alias = Array.isArray(terms)
    ? terms
        .map(term => getIn(term, 'alias'))
        .find(a => typeof a === 'string' && a.startsWith('bottlerocket@'))
    : undefined;
  return alias ? `\`amiSelectorTerms\` alias \`${String(alias)}\`` : undefined;
}

function bottlerocket(
  cluster: ClusterProfile,
  files: RepositoryFile[],
): OtherDevicePlugin | undefined {
  const { kind, name } = cluster.nodeClass;
  if (kind !== 'EC2NodeClass') return undefined;
  for (const { file, object } of objectsOf(files, /EC2NodeClass/)) {
    if (object.kind !== kind || object.metadata.name !== name) continue;
    const setting = bottlerocketSetting(object);
    if (setting) {
      return {
        kind: 'bottlerocket',
        readsNamedConfigs: false,
        file,
        setting: `EC2NodeClass \`${name}\` of the GPU pools with ${setting}, in \`${file}\``,
      };
    }
  }
  return undefined;
}

async function chartRelease(
  tree: RepoTree,
  cluster: ClusterProfile,
  files: RepositoryFile[],
): Promise<OtherDevicePlugin | undefined> {
  const [release] = await findHelmReleases(tree, files, DEVICE_PLUGIN_CHART);
  if (!release) return undefined;
  const name = readValue(release.layers, ['config', 'name']);
  const ref = cluster.devicePluginConfigMap;
  const shared = devicePluginChartDefaultSharing(release);
  return {
    kind: 'standalone',
    ...(shared
      ? {
          sharesByDefault: `${describeSharing(shared)}: ${shared.source}`,
        }
      : {}),
    readsNamedConfigs:
      name.state === 'set' &&
      name.value === ref.name &&
      (release.namespace === undefined || release.namespace === ref.namespace),
    file: release.file,
    setting: `the \`${DEVICE_PLUGIN_CHART}\` Helm chart installed by ${release.declaredBy} in \`${release.file}\``,
  };
}

function staticDaemonSet(
  files: RepositoryFile[],
): OtherDevicePlugin | undefined {
  for (const { file, object } of objectsOf(files, /k8s-device-plugin/)) {
    if (object.kind !== 'DaemonSet') continue;
    const containers = getIn(object, 'spec', 'template', 'spec', 'containers');
    const runsPlugin =
      Array.isArray(containers) &&
      containers.some(c => {
        const image = getIn(c, 'image');
        return typeof image === 'string' && DEVICE_PLUGIN_IMAGE.test(image);
      });
    if (runsPlugin) {
      return {
        kind: 'standalone',
        readsNamedConfigs: false,
        file,
        setting: `DaemonSet \`${String(object.metadata.name)}\` running the \`k8s-device-plugin\` image, in \`${file}\``,
      };
    }
  }
  return undefined;
}

/** The device plugin other than the GPU Operator's that serves `cluster`'s GPU nodes, if any. */
export async function otherDevicePlugin(
  tree: RepoTree,
  cluster: ClusterProfile,
  files: RepositoryFile[],
): Promise<OtherDevicePlugin | undefined> {
  return (
    bottlerocket(cluster, files) ??
    (await chartRelease(tree, cluster, files)) ??
    staticDaemonSet(files)
  );
}
