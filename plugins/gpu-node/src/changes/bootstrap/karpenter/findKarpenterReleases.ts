/**
 * Every Helm release of Karpenter the repository declares for a cluster
 * (`findHelmReleases`: any file, the cluster-ownership rule), with what each
 * sets the NodeOverlay gate to.
 */
import type { LayoutInput } from '../../../layout/layout';
import type { RepoTree } from '../../../repo/tree';
import { findHelmReleases } from '../helmReleases/findHelmReleases';
import type { HelmRelease } from '../helmReleases/helmRelease';
import { KARPENTER_CHART } from './karpenterChart';
import { readNodeOverlayGate, type NodeOverlayGate } from './nodeOverlayGate';

/** A release, with what it sets the gate to. */
export interface FoundKarpenterRelease extends HelmRelease {
  gate: NodeOverlayGate;
}

export async function findKarpenterReleases(
  tree: RepoTree,
  layout: LayoutInput,
  cluster: string,
): Promise<FoundKarpenterRelease[]> {
  const releases = await findHelmReleases(
    tree,
    layout,
    cluster,
    KARPENTER_CHART,
  );
  return releases.map(release => ({
    ...release,
    gate: readNodeOverlayGate(release.layers),
  }));
}
