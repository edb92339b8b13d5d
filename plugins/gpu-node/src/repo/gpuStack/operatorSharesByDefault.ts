/**
 * Whether the cluster's GPU Operator shares every GPU by default: its
 * device plugin (not turned off) applies `devicePlugin.config.default` to
 * every node without a `nvidia.com/device-plugin.config` label, and the
 * product's exclusive pools set none (NVIDIA gpu-operator docs,
 * "Time-Slicing GPUs in Kubernetes"). Each release is read by the import's
 * reader (`operatorReleaseDefault`), so the planner and the import never
 * disagree on what the default is.
 */
import type {
  ClusterProfile,
  OperatorDefaultSharing,
} from '@gpu-gitops/plugin-gpu-common';
import { GPU_OPERATOR_CHART } from '../../changes/bootstrap/gpuOperator/gpuOperatorChart';
import { findHelmReleases } from '../../changes/bootstrap/helmReleases/findHelmReleases';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import { readValue } from '../../changes/bootstrap/helmReleases/valuesLayer';
import {
  operatorReleaseDefault,
  type DevicePluginConfigSources,
} from '../../import/sharing/operatorDefaultSharing';
import {
  handWrittenConfigMaps,
  mayHoldGpuConfigMap,
} from '../handWrittenConfigMaps';
import type { RepoTree } from '../tree';
import { parseYamlDocuments } from '../yamlObjects';
import { describeSharing } from './devicePluginChartDefault';

/**
 * The hand-written ConfigMaps of configs among `files`, for callers that
 * have not read the repository state (the bootstrap, `validate`, the
 * allocation index); the product's own config files are not among them.
 */
function configsInFiles(files: RepositoryFile[]): DevicePluginConfigSources {
  const docs = files.flatMap(({ path, text }) =>
    mayHoldGpuConfigMap(text) ? parseYamlDocuments(path, text).documents : [],
  );
  return {
    devicePluginConfigs: {},
    handWrittenConfigMaps: handWrittenConfigMaps(docs),
  };
}

/**
 * How the default config of `cluster`'s GPU Operator shares every GPU, and
 * where it is set; undefined when it gives whole GPUs, cannot be told, or
 * the operator's device plugin is off. `configs`: the configs the
 * repository holds (`readRepoState`), else those of `files`.
 */
export async function operatorSharesByDefault(
  tree: RepoTree,
  cluster: ClusterProfile,
  files: RepositoryFile[],
  configs?: DevicePluginConfigSources,
): Promise<OperatorDefaultSharing | undefined> {
  const sources = configs ?? configsInFiles(files);
  for (const release of await findHelmReleases(
    tree,
    files,
    GPU_OPERATOR_CHART,
  )) {
    const enabled = readValue(release.layers, ['devicePlugin', 'enabled']);
    if (enabled.state === 'set' && enabled.value === false) continue;
    const { sharing, setting, config } = operatorReleaseDefault(
      release,
      sources,
      cluster,
    );
    if (sharing && setting) {
      return {
        file: release.file,
        setting,
        sharing: describeSharing(sharing),
        ...(config ? { config } : {}),
      };
    }
  }
  return undefined;
}
