/**
 * TEST-ONLY: an index's cluster as a refresh builds it, for the allocation
 * and GPU page tests: a static rack cluster (gpu-common's `staticRack`
 * fixtures) whose one pool is what a plan of `replicas` exclusive T4s
 * leaves on it.
 */
import { plan } from '@gpu-gitops/plugin-gpu-common';
import { gpuRequest } from '@gpu-gitops/plugin-gpu-common/src/planner/__testUtils__/fixtures';
import {
  poolStateOf,
  staticCluster,
  staticRackCatalog,
} from '@gpu-gitops/plugin-gpu-common/src/providers/__testUtils__/staticRack';
import type { ClusterIndex } from '../repoIndex/indexSnapshot';

/** The catalog the static clusters' pools are planned with. */
export const staticIndexCatalog = staticRackCatalog;

/** The pool a plan of `replicas` T4s leaves on the cluster. */
export function staticPoolOf(
  cluster: ClusterIndex['profile'],
  replicas: number,
) {
  return poolStateOf(
    plan(
      gpuRequest({ model: 't4', sharing: 'exclusive', replicas }),
      staticIndexCatalog,
      cluster,
    ),
  );
}

/** Cluster `name` with one pool of `replicas` T4s, bootstrapped. */
export function staticClusterIndex(name: string, replicas = 1): ClusterIndex {
  const profile = staticCluster('gpu', { name });
  return {
    profile,
    repoState: {
      pools: [staticPoolOf(profile, replicas)],
      devicePluginConfigs: {},
      migConfigs: {},
      workloads: [],
    },
    bootstrapped: true,
    kustomizationPath: `clusters/${name}/gpu/kustomization.yaml`,
  };
}
