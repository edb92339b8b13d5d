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
import { bootstrapDraDriver } from './draDriver/bootstrapDraDriver';
import { draDriverNotes } from './draDriver/draDriverNotes';
import type { RepositoryFile } from './helmReleases/valuesConfigMaps';
import { bootstrapKueue } from './kueue/bootstrapKueue';
import { kueueNotes } from './kueue/kueueNotes';
import type { GpuFolder } from './wiring/wireGpuFolders';
import {
  addOnChartFiles,
  addOnChartFolders,
  addOnChartResources,
  addOnProxyNotes,
  keptAddOnNotes,
  staleAddOnFolders,
} from './addOnChartOutcome';
import type { AddOnChartOutcome, DeclaredInstall } from './addOnChart';
import type { WorkloadCluster } from '../workloadCluster/managementCluster';
import type { StaleFolder } from './retireBootstrapFolders';

export interface AddOnCharts {
  files: BootstrapFileWrite[];
  folders: GpuFolder[];
  /** The bootstrap's own releases the cluster no longer wants. */
  stale: StaleFolder[];
  /** The GPU folder's new `resources` (HelmChartProxies). */
  resources: string[];
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
  /** On a Cluster API management repository: its workload cluster. */
  workload: WorkloadCluster | undefined,
): Promise<AddOnCharts> {
  const target = workload
    ? { cluster: workload, gpuKustomization: paths.gpuKustomization }
    : undefined;
  const draDriver = await bootstrapDraDriver(
    staged,
    paths,
    cluster,
    stack,
    files,
    target,
  );
  const kueue = await bootstrapKueue(staged, paths, cluster, files, target);
  const outcomes: AddOnChartOutcome<DeclaredInstall>[] = [draDriver, kueue];
  return {
    files: outcomes.flatMap(addOnChartFiles),
    folders: outcomes.flatMap(addOnChartFolders),
    stale: outcomes.flatMap(staleAddOnFolders),
    resources: outcomes.flatMap(addOnChartResources),
    notes: [
      ...draDriverNotes(draDriver, cluster.dra?.consumableShares),
      ...kueueNotes(kueue, cluster),
      ...outcomes.flatMap(addOnProxyNotes),
      ...outcomes.flatMap(keptAddOnNotes),
    ],
  };
}
