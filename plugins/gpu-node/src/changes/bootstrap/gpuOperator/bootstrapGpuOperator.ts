/**
 * The bootstrap's GPU Operator step: when the repository declares no GPU
 * Operator release for the cluster (`findHelmReleases`: any file, the
 * cluster-ownership rule), the bootstrap writes (and later keeps) its own;
 * when it declares one the bootstrap did not write, it writes none, never
 * edits that one, and checks what it sets (`operatorSettings.ts`).
 */
import { posix } from 'node:path';
import type {
  ClusterGpuStack,
  ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import type { StagedTree } from '../../stagedTree';
import { isBootstrapFile, type BootstrapFileWrite } from '../bootstrapFile';
import type { BootstrapPaths } from '../bootstrapPaths';
import { findHelmReleases } from '../helmReleases/findHelmReleases';
import type { OperatorConfigMaps } from '../operatorConfigMaps';
import { GPU_OPERATOR_CHART } from './gpuOperatorChart';
import { managedGpuOperatorRelease } from './managedGpuOperatorRelease';
import { helmChartProxyPath } from '../../workloadCluster/helmChartProxyRelease';
import {
  checkOperatorRelease,
  type OperatorReleaseCheck,
} from './operatorSettings';

/** What the step found, and what the bootstrap writes for it. */
export type GpuOperatorOutcome =
  /** No release the bootstrap did not write: its own, to write (or keep) whole. */
  | { kind: 'bootstrap'; files: BootstrapFileWrite[] }
  /** Releases the repository declares: left as they are, each checked. */
  | {
      kind: 'repository';
      checks: OperatorReleaseCheck[];
      /** The bootstrap's own release, when one is there as well. */
      managedFolder?: string;
    };

export async function bootstrapGpuOperator(
  staged: StagedTree,
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  configMaps: OperatorConfigMaps,
  chartVersion: string,
  /** The cluster's files (`clusterReleaseFiles`), read once per bootstrap. */
  files: RepositoryFile[],
  /** What the repository runs on the GPU nodes (`readGpuStack`). */
  stack: ClusterGpuStack,
): Promise<GpuOperatorOutcome> {
  // Its own release: the kustomize folder, or on a Cluster API management
  // repository the HelmChartProxy made of it (`helmChartProxyRelease.ts`).
  const own = [
    paths.operatorKustomization,
    helmChartProxyPath(paths.gpuKustomization, GPU_OPERATOR_CHART),
  ];
  const managedFiles = new Set<string>();
  for (const file of own) {
    if (isBootstrapFile(await staged.read(file))) managedFiles.add(file);
  }
  const managed = managedFiles.has(paths.operatorKustomization);
  const declared = (
    await findHelmReleases(staged.base, files, GPU_OPERATOR_CHART)
  ).filter(r => !managedFiles.has(r.file));
  if (declared.length === 0) {
    return {
      kind: 'bootstrap',
      files: managedGpuOperatorRelease(
        paths,
        cluster,
        configMaps,
        chartVersion,
        stack,
      ),
    };
  }
  return {
    kind: 'repository',
    checks: declared.map(release =>
      checkOperatorRelease(release, cluster, configMaps, stack),
    ),
    managedFolder: managed
      ? posix.dirname(paths.operatorKustomization)
      : undefined,
  };
}

/**
 * Whether the operator may read the ConfigMap of `kind` the profile names:
 * not when a release the repository declares is known to read another.
 */
export function operatorMayRead(
  outcome: GpuOperatorOutcome,
  kind: 'devicePlugin' | 'migParted',
): boolean {
  return (
    outcome.kind === 'bootstrap' ||
    !outcome.checks.some(check => check.readsOther[kind])
  );
}
