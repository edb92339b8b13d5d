/**
 * The GPU Operator's default device-plugin config: with
 * `devicePlugin.config.default` naming a key of the `devicePlugin.config.name`
 * ConfigMap, the device plugin applies that config on every node without a
 * `nvidia.com/device-plugin.config` label (NVIDIA gpu-operator docs,
 * "Time-Slicing GPUs in Kubernetes": "the default configuration ... applies
 * to every node"; `templates/clusterpolicy.yaml` hands both to the plugin).
 * A hand-written GPU pool without that label therefore shares its GPUs when
 * the default does. The releases and their values are read with the
 * bootstrap's readers (`findHelmReleases`, `readValue`); the config from the
 * ConfigMap of that name in the cluster's folder (`readRepoState`), or from
 * the chart's own `devicePlugin.config.data` when it creates it.
 */
import { parse } from 'yaml';
import type { ClusterProfile, RepoState } from '@gpu-gitops/plugin-gpu-common';
import { GPU_OPERATOR_CHART } from '../../changes/bootstrap/gpuOperator/gpuOperatorChart';
import {
  clusterReleaseFiles,
  findHelmReleases,
} from '../../changes/bootstrap/helmReleases/findHelmReleases';
import type { HelmRelease } from '../../changes/bootstrap/helmReleases/helmRelease';
import {
  hiddenSources,
  readValue,
} from '../../changes/bootstrap/helmReleases/valuesLayer';
import type { LayoutInput } from '../../layout/layout';
import type { RepoTree } from '../../repo/tree';
import type { ImportFinding } from '../convert/findings';
import { deviceConfigSharing, type NodeSharing } from './nodeSharing';

export interface OperatorDefault {
  /** The sharing of the default config; undefined when it gives whole GPUs. */
  sharing?: NodeSharing;
  /** Where the sharing default is set, e.g. "`devicePlugin.config.default: any` in …". */
  setting?: string;
  /** The sharing default's key and content, which unlabelled nodes run. */
  config?: { key: string; content: unknown };
  findings: ImportFinding[];
}

/** The device-plugin configs the repository holds for the cluster, as `readRepoState` reads them. */
export type DevicePluginConfigSources = Pick<
  RepoState,
  'devicePluginConfigs' | 'handWrittenConfigMaps'
>;

const value = (release: HelmRelease, key: string) =>
  readValue(release.layers, key.split('.'));

/** The default config's content, where the repository holds it. */
function defaultConfig(
  release: HelmRelease,
  configMap: string,
  key: string,
  state: DevicePluginConfigSources,
  cluster: ClusterProfile,
): unknown {
  const create = value(release, 'devicePlugin.config.create');
  const data = value(release, `devicePlugin.config.data`);
  if (create.state === 'set' && create.value === true && data.state === 'set') {
    const text = (data.value as Record<string, unknown>)[key];
    return typeof text === 'string' ? parse(text) : undefined;
  }
  const handWritten = state.handWrittenConfigMaps?.find(
    m => m.name === configMap,
  );
  if (handWritten) return handWritten.devicePluginConfigs[key];
  return configMap === cluster.devicePluginConfigMap.name
    ? state.devicePluginConfigs[key]
    : undefined;
}

/** The default config of one GPU Operator release, and what cannot be told about it. */
export function operatorReleaseDefault(
  release: HelmRelease,
  state: DevicePluginConfigSources,
  cluster: ClusterProfile,
): OperatorDefault {
  const where = `${release.declaredBy} (${release.file})`;
  const key = value(release, 'devicePlugin.config.default');
  const name = value(release, 'devicePlugin.config.name');
  if (key.state === 'unknown' || name.state === 'unknown') {
    const hidden = [
      ...(key.state === 'unknown' ? key.hidden : []),
      ...(name.state === 'unknown' ? name.hidden : []),
    ];
    return {
      findings: [
        {
          kind: 'not-understood',
          path: release.file,
          object: release.declaredBy,
          field: 'devicePlugin.config.default',
          message: `whether the GPU Operator's default device-plugin config shares GPUs cannot be told: ${hiddenSources(hidden)} may set it, and the import cannot read it; pools without a nvidia.com/device-plugin.config label are adopted as giving whole GPUs`,
        },
      ],
    };
  }
  if (key.state !== 'set' || typeof key.value !== 'string' || !key.value) {
    return { findings: [] };
  }
  if (name.state !== 'set' || typeof name.value !== 'string' || !name.value) {
    return { findings: [] }; // no ConfigMap: the plugin reads no config at all
  }
  const config = defaultConfig(release, name.value, key.value, state, cluster);
  if (config === undefined) {
    return {
      findings: [
        {
          kind: 'not-understood',
          path: release.file,
          object: release.declaredBy,
          field: 'devicePlugin.config.default',
          value: key.value,
          message: `the GPU Operator's default device-plugin config is key "${key.value}" of ConfigMap "${name.value}", which is not in the cluster's folder: whether it shares GPUs cannot be told; pools without a nvidia.com/device-plugin.config label are adopted as giving whole GPUs`,
        },
      ],
    };
  }
  const sharing = deviceConfigSharing(
    config,
    `the GPU Operator's default device-plugin config "${key.value}" of ConfigMap "${name.value}" (devicePlugin.config.default in ${where}), which applies to every node without a nvidia.com/device-plugin.config label`,
  );
  if (!sharing) return { findings: [] };
  return {
    sharing,
    setting: `\`devicePlugin.config.default: ${key.value}\` (key of ConfigMap \`${name.value}\`) in ${key.setIn.where}`,
    config: { key: key.value, content: config },
    findings: [],
  };
}

/** The default config of the cluster's GPU Operator release(s). */
export async function operatorDefaultSharing(
  tree: RepoTree,
  layout: LayoutInput | undefined,
  cluster: ClusterProfile,
  state: RepoState,
): Promise<OperatorDefault> {
  const files = await clusterReleaseFiles(tree, layout, cluster.name);
  const releases = await findHelmReleases(tree, files, GPU_OPERATOR_CHART);
  const defaults = releases.map(r => operatorReleaseDefault(r, state, cluster));
  return {
    sharing: defaults.find(d => d.sharing)?.sharing,
    findings: defaults.flatMap(d => d.findings),
  };
}
