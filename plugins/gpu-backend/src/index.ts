/**
 * The `gpu` backend plugin: GPU allocation index of the GitOps repository and
 * the allocation / pools / plan API for the catalog.
 *
 * @packageDocumentation
 */
export { gpuPlugin as default, INDEX_REFRESH_TASK_ID } from './plugin';
export { createRouter } from './http/router';
export type { RouterOptions } from './http/router';
export { RepoIndex } from './repoIndex/RepoIndex';
export type { RepoIndexOptions, RefreshResult } from './repoIndex/RepoIndex';
export { emptySnapshot } from './repoIndex/indexSnapshot';
export type {
  IndexSnapshot,
  IndexedWorkload,
  StoredRequest,
  ClusterIndex,
} from './repoIndex/indexSnapshot';
export { GitFetchSource } from './repoIndex/gitSnapshot';
export type { RepoSource, BlobChanges } from './repoIndex/gitSnapshot';
export { AllocationQueries } from './allocation/AllocationQueries';
export { readGpuBackendConfig } from './config/readGpuBackendConfig';
export type { GpuBackendConfig } from './config/readGpuBackendConfig';
