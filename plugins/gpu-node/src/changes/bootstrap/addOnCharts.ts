/**
 * The charts a cluster profile adds beside the GPU stack: NVIDIA's DRA
 * driver (`dra`, `draDriver/`) and Kueue (`kueue`, `kueue/`), each written
 * only where the repository installs none of its own. One step of the
 * bootstrap: their files, the folders whatever applies the cluster must
 * apply, the bootstrap's own folders it retires, and what the pull request
 * tells the reviewer.
 */
import type {
  ClusterGpuStack,
  ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { StagedTree } from '../stagedTree';
import type { BootstrapFileWrite } from './bootstrapFile';
import type { BootstrapPaths } from './bootstrapPaths';
import {
  bootstrapDraDriver,
  draDriverFolders,
} from './draDriver/bootstrapDraDriver';
import { draDriverNotes } from './draDriver/draDriverNotes';
import type { RepositoryFile } from './helmReleases/valuesConfigMaps';
import { bootstrapKueue, kueueFolders } from './kueue/bootstrapKueue';
import { kueueNotes } from './kueue/kueueNotes';
import type { GpuFolder } from './wiring/wireGpuFolders';
import { staleAddOnFolders } from './addOnChart';
import type { StaleFolder } from './retireBootstrapFolders';

export interface AddOnCharts {
  files: BootstrapFileWrite[];
  folders: GpuFolder[];
  /** The bootstrap's own releases the cluster no longer wants. */
  stale: StaleFolder[];
  notes: string[];
}

export async function addOnCharts(
  staged: StagedTree,
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  /** What the repository runs on the GPU nodes (`readGpuStack`). */
  stack: ClusterGpuStack,
  /** The cluster's files (`clusterReleaseFiles`), read once per bootstrap. */
  files: RepositoryFile[],
): Promise<AddOnCharts> {
  const draDriver = await bootstrapDraDriver(
    staged,
    paths,
    cluster,
    stack,
    files,
  );
  const kueue = await bootstrapKueue(staged, paths, cluster, files);
  return {
    files: [
      ...(draDriver.kind === 'bootstrap' ? draDriver.files : []),
      ...(kueue.kind === 'bootstrap' ? kueue.files : []),
    ],
    folders: [...draDriverFolders(draDriver), ...kueueFolders(kueue)],
    stale: [...staleAddOnFolders(draDriver), ...staleAddOnFolders(kueue)],
    notes: [
      ...draDriverNotes(draDriver, cluster.dra?.consumableShares),
      ...kueueNotes(kueue, cluster),
    ],
  };
}
