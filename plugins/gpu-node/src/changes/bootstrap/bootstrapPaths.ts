/**
 * Where the bootstrap writes, from the repository layout: the GPU folder's
 * files are the ones the request flow reads (`clusterKustomization`,
 * `devicePluginConfig`, `migConfig`); the GPU Operator, Karpenter's release
 * and the scheduler profile sit beside the GPU folder, in the cluster's folder.
 */
import { posix } from 'path';
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { WHOLE_REPOSITORY } from '../../publish/sparseFolders';
import {
  clusterKustomizationPath,
  clusterScopePath,
  devicePluginConfigPath,
  layoutPrefix,
  migConfigPath,
  resolveLayout,
  type LayoutInput,
} from '../../layout/layout';
import { DEFAULT_DEVICE_PLUGIN_CONFIG } from './gpuOperatorValues';
import { karpenterChartOf } from './karpenter/karpenterChart';

export interface BootstrapPaths {
  gpuKustomization: string;
  defaultDevicePluginConfig: string;
  migConfig: string;
  /** The GPU EC2NodeClass, in the GPU folder's `nodeclasses/`. */
  nodeClass(name: string): string;
  operatorKustomization: string;
  operatorValues: string;
  /**
   * Karpenter's Helm release, when the bootstrap writes it. Not `karpenter/`:
   * platform teams keep their hand-written NodePools in a folder of that name.
   */
  karpenterKustomization: string;
  karpenterValues: string;
  scheduler: string;
}

/** Paths of everything the bootstrap owns for a cluster. */
export function bootstrapPaths(
  layout: LayoutInput,
  cluster: string,
): BootstrapPaths {
  const resolved = resolveLayout(layout);
  const gpuKustomization = clusterKustomizationPath(resolved, cluster);
  const gpuFolder = posix.dirname(gpuKustomization);
  const operatorFolder = posix.join(
    clusterScopePath(resolved, cluster),
    'gpu-operator',
  );
  const karpenterFolder = posix.join(
    clusterScopePath(resolved, cluster),
    'karpenter-controller',
  );
  return {
    gpuKustomization,
    defaultDevicePluginConfig: devicePluginConfigPath(
      resolved,
      cluster,
      DEFAULT_DEVICE_PLUGIN_CONFIG,
    ),
    migConfig: migConfigPath(resolved, cluster),
    nodeClass: name => posix.join(gpuFolder, 'nodeclasses', `${name}.yaml`),
    operatorKustomization: posix.join(operatorFolder, 'kustomization.yaml'),
    operatorValues: posix.join(operatorFolder, 'values.yaml'),
    karpenterKustomization: posix.join(karpenterFolder, 'kustomization.yaml'),
    karpenterValues: posix.join(karpenterFolder, 'values.yaml'),
    scheduler: posix.join(
      clusterScopePath(resolved, cluster),
      'gpu-scheduler',
      'gpu-binpack.yaml',
    ),
  };
}

/**
 * The folders the bootstrap reads and writes (a sparse checkout's folders):
 * the cluster's folder, and the pool, device-plugin and MIG folders when the
 * layout puts them elsewhere (the node class must not duplicate a pool's).
 * The whole repository for a Karpenter cluster: Karpenter's release may be
 * declared in any file.
 *
 * @public
 */
export function bootstrapFolders(
  layout: LayoutInput,
  profile: Pick<ClusterProfile, 'name' | 'provider'>,
): string[] {
  if (karpenterChartOf(profile)) return WHOLE_REPOSITORY;
  const cluster = profile.name;
  const resolved = resolveLayout(layout);
  const paths = bootstrapPaths(resolved, cluster);
  const folderOf = (file: string) => posix.dirname(file);
  const candidates = [
    clusterScopePath(resolved, cluster),
    folderOf(paths.gpuKustomization),
    layoutPrefix(resolved, 'nodePool', { cluster }, 'pool').replace(/\/$/, ''),
    folderOf(paths.defaultDevicePluginConfig),
    folderOf(paths.migConfig),
  ].map(folder => (folder === '.' ? '' : folder));
  const unique = [...new Set(candidates)].sort();
  // A folder inside another one adds nothing to a checkout.
  return unique.filter(
    folder =>
      !unique.some(
        other =>
          other !== folder && (other === '' || folder.startsWith(`${other}/`)),
      ),
  );
}
