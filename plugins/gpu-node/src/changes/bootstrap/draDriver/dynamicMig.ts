/**
 * The DRA driver's `DynamicMIG` gate beside the GPU Operator's MIG manager:
 * the driver then creates MIG partitions itself and destroys the ones it
 * did not create, and upstream says never to run mig-parted while its
 * kubelet plugin runs (dra-driver-nvidia-gpu@95932046
 * `site/content/docs/guides/gpu-allocation/mig.md`). The bootstrap never
 * turns the gate on; a driver release the repository declares with it on,
 * on a cluster whose MIG manager runs, is named with what to change.
 */
import type { ClusterGpuStack } from '@gpu-gitops/plugin-gpu-common';
import type { RepoTree } from '../../../repo/tree';
import { DRA_DRIVER_CHARTS } from '../../../repo/gpuStack/draDrivers';
import { findHelmReleases } from '../helmReleases/findHelmReleases';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import { readGate } from '../karpenter/nodeOverlayGate';
import { DYNAMIC_MIG_GATE } from './draDriverChart';

const DYNAMIC_MIG_PATH = ['featureGates', DYNAMIC_MIG_GATE] as const;

/**
 * What to change, one sentence per driver release that turns `DynamicMIG`
 * on while the MIG manager runs; empty when none does.
 */
export async function dynamicMigConflicts(
  tree: RepoTree,
  files: RepositoryFile[],
  stack: ClusterGpuStack,
): Promise<string[]> {
  if (stack.migManagerOff) return [];
  const conflicts: string[] = [];
  for (const chart of DRA_DRIVER_CHARTS) {
    for (const release of await findHelmReleases(tree, files, chart)) {
      const gate = readGate(release.layers, DYNAMIC_MIG_PATH);
      if (gate.state !== 'on') continue;
      conflicts.push(
        `**To do**: NVIDIA's DRA driver installed by ${release.declaredBy} in \`${release.file}\` turns \`featureGates.${DYNAMIC_MIG_GATE}\` on (${gate.setIn.where}) while the GPU Operator's MIG manager (mig-parted) runs on this cluster: the driver destroys MIG partitions it did not create, and mig-parted rewrites the ones it made. Set \`featureGates.${DYNAMIC_MIG_GATE}: false\` there, or \`migManager.enabled: false\` in the GPU Operator's release.`,
      );
    }
  }
  return conflicts;
}
