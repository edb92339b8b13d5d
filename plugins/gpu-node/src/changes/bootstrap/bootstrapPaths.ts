/**
 * Where the bootstrap writes, from the repository layout: the GPU folder's
 * files are the ones the request flow reads (`clusterKustomization`,
 * `devicePluginConfig`, `migConfig`) and the bin-packing scheduler; the GPU
 * Operator, Karpenter's release, NVIDIA's DRA driver release and Kueue's
 * release sit beside the GPU folder, in the cluster's folder.
 */
import { posix } from 'path';
import { WHOLE_REPOSITORY } from '../../publish/sparseFolders';
import {
  clusterKustomizationPath,
  clusterScopePath,
  devicePluginConfigPath,
  migConfigPath,
  resolveLayout,
  type LayoutInput,
} from '../../layout/layout';
import { DEFAULT_DEVICE_PLUGIN_CONFIG } from './gpuOperatorValues';

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
  /** NVIDIA's DRA driver release, when the cluster profile enables DRA. */
  draDriverKustomization: string;
  draDriverValues: string;
  /** Its Flux or Argo CD objects, where the repository installs charts that way. */
  draDriverRelease: string;
  /**
   * Kueue's release, when the cluster profile enables Kueue. Not `kueue/`:
   * the product's queues are in the GPU folder's `kueue/`, and teams keep
   * their own queues in folders of that name.
   */
  kueueKustomization: string;
  kueueValues: string;
  /** Its Flux or Argo CD objects, where the repository installs charts that way. */
  kueueRelease: string;
  /** The bin-packing scheduler's objects, in the GPU folder's `scheduler/`. */
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
  const draDriverFolder = posix.join(
    clusterScopePath(resolved, cluster),
    'dra-driver',
  );
  const kueueFolder = posix.join(
    clusterScopePath(resolved, cluster),
    'kueue-controller',
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
    draDriverKustomization: posix.join(draDriverFolder, 'kustomization.yaml'),
    draDriverValues: posix.join(draDriverFolder, 'values.yaml'),
    draDriverRelease: posix.join(draDriverFolder, 'release.yaml'),
    kueueKustomization: posix.join(kueueFolder, 'kustomization.yaml'),
    kueueValues: posix.join(kueueFolder, 'values.yaml'),
    kueueRelease: posix.join(kueueFolder, 'release.yaml'),
    scheduler: posix.join(gpuFolder, 'scheduler', 'gpu-binpack.yaml'),
  };
}

/**
 * The folders the bootstrap reads and writes (a sparse checkout's folders):
 * the whole repository, for every cluster. The GPU Operator's release (and
 * a Karpenter cluster's Karpenter release) may be declared in any file, and
 * the bootstrap must see it before it writes one of its own.
 *
 * @public
 */
export function bootstrapFolders(): string[] {
  return WHOLE_REPOSITORY;
}
