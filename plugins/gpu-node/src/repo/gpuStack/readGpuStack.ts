/**
 * What the repository runs on a cluster's GPU nodes beyond what the product
 * assumes, read from the cluster's files (`clusterReleaseFiles`: its own
 * folder and every file outside all clusters' folders): the planner's
 * `RepoState.gpuStack`, and what the bootstrap adapts its GPU Operator to.
 */
import type {
  ClusterGpuStack,
  ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import type { RepoTree } from '../tree';
import { isKustomizationFile } from '../../kustomize/roots';
import { migManagerOff } from './migManagerOff';
import { otherDevicePlugin } from './otherDevicePlugin';

/**
 * Text a file must hold for the readers below to take anything from it
 * (beyond the values files a release names, which `tree` reads): the
 * charts' names or a `chartRef` (`findHelmReleases`), a ConfigMap a Flux
 * release takes values from (`valuesConfigMaps`), an EC2NodeClass and the
 * device plugin's image (`otherDevicePlugin`).
 */
const STACK_MENTION =
  /gpu-operator|nvidia-device-plugin|chartRef|ConfigMap|EC2NodeClass|k8s-device-plugin/i;

/**
 * Whether a file of this path and text can change what `readGpuStack`
 * reads: the allocation index re-reads the stack only when such a file (or
 * a file the last read opened through its tree) changes.
 *
 * @public
 */
export function mayShapeGpuStack(path: string, text: string): boolean {
  return isKustomizationFile(path) || STACK_MENTION.test(text);
}

/**
 * What the repository runs on `cluster`'s GPU nodes, from `files`
 * (`clusterReleaseFiles`, or the allocation index's same selection);
 * `tree` reads the values files the releases name.
 *
 * @public
 */
export async function readGpuStack(
  tree: RepoTree,
  cluster: ClusterProfile,
  files: RepositoryFile[],
): Promise<ClusterGpuStack> {
  const devicePlugin = await otherDevicePlugin(tree, cluster, files);
  const migManager = await migManagerOff(tree, files);
  return {
    ...(devicePlugin ? { devicePlugin } : {}),
    ...(migManager ? { migManagerOff: migManager } : {}),
  };
}
