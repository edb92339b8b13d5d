/**
 * The bootstrap's Kueue step, an add-on chart (`addOnChart.ts`): when the
 * cluster profile enables Kueue and the repository installs no Kueue of its
 * own (a release of the chart `kueue` in any form `findHelmReleases`
 * reads, or Kueue's plain manifests: `repositoryKueue.ts`), the bootstrap writes (and later keeps) its own release, at the
 * profile's Kueue version, with the Configuration the product's queues need
 * (`kueueConfiguration.ts`). A Kueue the team installs is never edited; the
 * notes say what its Configuration must hold.
 */
import { posix } from 'node:path';
import {
  kueueVersionOf,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { StagedTree } from '../../stagedTree';
import {
  bootstrapAddOnChart,
  type AddOnChart,
  type AddOnChartOutcome,
  type ProxyTarget,
  usedFiles,
} from '../addOnChart';
import type { BootstrapPaths } from '../bootstrapPaths';
import type { OciChart } from '../helmReleases/chartReleaseObjects';
import type { HelmRelease } from '../helmReleases/helmRelease';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import { kueueChart } from './kueueChart';
import { kueueChartValues } from './kueueConfiguration';
import { repositoryKueueReleases } from './repositoryKueue';

/** What the step found, and what the bootstrap writes for it. */
export type KueueOutcome = AddOnChartOutcome<HelmRelease>;

const valuesComment = (chart: OciChart) =>
  [
    `Helm values of Kueue (chart ${chart.chart} ${chart.version}, kubernetes-sigs/kueue): its Configuration, the chart's default with what the GPU queues need.`,
    'The chart rolls kueue-controller-manager when this Configuration changes (Kueue reads deviceClassMappings only at start).',
  ].join('\n');

/** The GPU folder's Kueue objects (`changes/kueue/kueueFiles.ts`), which need Kueue's CRDs. */
const queuesFolder = (paths: BootstrapPaths) =>
  posix.join(posix.dirname(paths.gpuKustomization), 'kueue');

/** Kueue as an add-on chart of `cluster`. */
export function kueueAddOn(
  staged: StagedTree,
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  files: RepositoryFile[],
): AddOnChart<HelmRelease> {
  const chart = kueueChart(kueueVersionOf(cluster));
  return {
    owner: "Kueue's",
    installs: 'Kueue',
    chart,
    kustomization: paths.kueueKustomization,
    values: paths.kueueValues,
    release: paths.kueueRelease,
    wanted: Boolean(cluster.kueue),
    offReason: 'the cluster profile no longer enables Kueue',
    stillUsedBy: used =>
      usedFiles(
        used.filter(f => f.path.startsWith(`${queuesFolder(paths)}/`)),
        "the GPU folder's Kueue queues",
      ),
    what: "Kueue's release",
    helmValues: () => kueueChartValues(cluster),
    valuesComment: valuesComment(chart),
    otherDeclarations: ", or Kueue's release manifests",
    declared: () => repositoryKueueReleases(staged.base, files),
  };
}

export function bootstrapKueue(
  staged: StagedTree,
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  /** The cluster's files (`clusterReleaseFiles`), read once per bootstrap. */
  files: RepositoryFile[],
  /** On a Cluster API management repository: its workload cluster. */
  workload?: ProxyTarget,
): Promise<KueueOutcome> {
  return bootstrapAddOnChart(
    staged,
    kueueAddOn(staged, paths, cluster, files),
    files,
    workload,
  );
}
