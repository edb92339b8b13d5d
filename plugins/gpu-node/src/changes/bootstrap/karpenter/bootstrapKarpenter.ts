/**
 * The bootstrap's Karpenter step, for a cluster whose provider runs
 * Karpenter: when the repository declares no Karpenter release for the
 * cluster, the bootstrap writes (and later keeps) its own, with the gate as
 * the profile says; when it declares one the bootstrap did not write, it
 * never edits it and tells the reviewer what to set there instead.
 */
import { posix } from 'node:path';
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import type { StagedTree } from '../../stagedTree';
import {
  findKarpenterReleases,
  type FoundKarpenterRelease,
} from './findKarpenterReleases';
import { karpenterChartOf, type KarpenterChart } from './karpenterChart';
import {
  hasManagedRelease,
  writeManagedRelease,
  type ManagedReleaseChange,
  type ManagedReleasePaths,
} from './managedKarpenterRelease';

/** What the step found and did. */
export type KarpenterOutcome =
  /** The provider runs no Karpenter (`static`). */
  | { kind: 'no-karpenter' }
  /** The bootstrap's own release, written or brought to the profile. */
  | { kind: 'managed'; chart: KarpenterChart; release: ManagedReleaseChange }
  /** Releases the bootstrap did not write: left as they are. */
  | {
      kind: 'hand-written';
      releases: FoundKarpenterRelease[];
      /** The bootstrap's own release, when one is there as well. */
      managedFolder?: string;
    };

export async function bootstrapKarpenter(
  staged: StagedTree,
  paths: ManagedReleasePaths,
  cluster: ClusterProfile,
  /** The cluster's files (`clusterReleaseFiles`), read once per bootstrap. */
  files: RepositoryFile[],
): Promise<KarpenterOutcome> {
  const chart = karpenterChartOf(cluster);
  if (!chart) return { kind: 'no-karpenter' };
  const managed = await hasManagedRelease(staged, paths);
  const handWritten = (await findKarpenterReleases(staged.base, files)).filter(
    r => !(managed && r.file === paths.karpenterKustomization),
  );
  if (handWritten.length > 0) {
    return {
      kind: 'hand-written',
      releases: handWritten,
      managedFolder: managed
        ? posix.dirname(paths.karpenterKustomization)
        : undefined,
    };
  }
  return {
    kind: 'managed',
    chart,
    release: await writeManagedRelease(staged, paths, cluster, chart),
  };
}
