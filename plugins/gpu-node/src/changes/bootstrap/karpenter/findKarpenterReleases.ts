/**
 * Every Helm release of Karpenter the repository declares for a cluster
 * (`findHelmReleases`: any file, the cluster-ownership rule), with what each
 * sets the NodeOverlay gate and, on AWS, the DRA gate to.
 */
import type { RepoTree } from '../../../repo/tree';
import { findHelmReleases } from '../helmReleases/findHelmReleases';
import type { HelmRelease } from '../helmReleases/helmRelease';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import { KARPENTER_CHART } from './karpenterChart';
import { readDraNvidiaGate } from './draNvidiaGate';
import { readNodeOverlayGate, type NodeOverlayGate } from './nodeOverlayGate';

/** A release, with what it sets the gate to. */
export interface FoundKarpenterRelease extends HelmRelease {
  gate: NodeOverlayGate;
  /** What it sets the AWS NVIDIA DRA gate to (`draNvidiaGate.ts`). */
  draGate: NodeOverlayGate;
}

export async function findKarpenterReleases(
  tree: RepoTree,
  files: RepositoryFile[],
): Promise<FoundKarpenterRelease[]> {
  const releases = await findHelmReleases(tree, files, KARPENTER_CHART);
  return releases.map(release => ({
    ...release,
    gate: readNodeOverlayGate(release.layers),
    draGate: readDraNvidiaGate(release.layers),
  }));
}
