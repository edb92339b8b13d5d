import type { ClusterProfile, GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import type { FsRepoTree } from '../../repo/tree';
import { buildReleaseChange } from '../release/buildReleaseChange';
import { writeChangeSet } from '../stagedTree';

/** Releases request `ml/<name>` on the checkout `tree` (on disk at `dir`) and writes the change, as a merge would. */
export async function releaseOnDisk(
  tree: FsRepoTree,
  dir: string,
  name: string,
  cluster: ClusterProfile,
  catalog: GpuCatalog,
) {
  const release = await buildReleaseChange({
    tree,
    dir,
    request: { namespace: 'ml', name },
    clusterProfile: () => cluster,
    catalog,
  });
  await writeChangeSet(tree, release.changeSet);
  return release;
}
