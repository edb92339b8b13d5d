/**
 * The immutable view of the GitOps repository that the index hands to the
 * routes and allocation queries: one per indexed commit, never changed after
 * it is built (a refresh builds a new one).
 */
import type {
  ClusterProfile,
  GpuRequest,
  RepoState,
  RepositoryWorkload,
  WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import type { SkippedFile } from '@gpu-gitops/plugin-gpu-node';

/**
 *  A GPU workload with the cluster its pool belongs to.
 *
 * @public
 */
export interface IndexedWorkload extends WorkloadState {
  cluster: string;
}

/** @public */
export interface StoredRequest {
  path: string;
  request: GpuRequest;
}

/** @public */
export interface ClusterIndex {
  profile: ClusterProfile;
  /** The cluster's pools and configs plus the workloads on its pools, as the planner reads them. */
  repoState: RepoState;
  /**
   * The cluster's GPU kustomization exists: requests for it can be written.
   * The actions refuse a cluster without it (gpu-node clusterNotBootstrapped),
   * and so does the preview.
   */
  bootstrapped: boolean;
  /** Where that kustomization is (the repository layout's `clusterKustomization`). */
  kustomizationPath: string;
}

/**
 *  One consistent, immutable view of the repository at `revision`.
 *
 * @public
 */
export interface IndexSnapshot {
  revision?: string;
  clusters: Map<string, ClusterIndex>;
  workloads: IndexedWorkload[];
  /** Workloads by their `backstage.io/kubernetes-id` label. */
  workloadsByKubernetesId: Map<string, IndexedWorkload[]>;
  /** Stored requests by `<namespace>/<name>`. */
  requests: Map<string, StoredRequest>;
  /**
   * Every Deployment, StatefulSet, Job and CronJob of the workload folders
   * (GPU or not) by name, sorted by namespace, kind and overlay.
   */
  workloadObjectsByName: Map<string, RepositoryWorkload[]>;
  /** Files the reader could not use, and why. */
  skipped: SkippedFile[];
}

/** @public */
export const emptySnapshot = (): IndexSnapshot => ({
  clusters: new Map(),
  workloads: [],
  workloadsByKubernetesId: new Map(),
  requests: new Map(),
  workloadObjectsByName: new Map(),
  skipped: [],
});
