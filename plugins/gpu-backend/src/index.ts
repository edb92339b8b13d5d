/**
 * The `gpu` backend plugin: GPU allocation index of the GitOps repository and
 * the allocation / pools / plan API for the catalog.
 *
 * @packageDocumentation
 */
export { AllocationQueries } from './allocation/AllocationQueries';
export type { AllocationContext } from './allocation/computeAllocation';
export type { IndexedPoolSummary } from './allocation/poolSummaries';
export { readGpuBackendConfig } from './config/readGpuBackendConfig';
export type {
  GpuBackendConfig,
  HumanDuration,
} from './config/readGpuBackendConfig';
export { Readiness } from './health/Readiness';
export type { NotReady } from './health/Readiness';
export type {
  AllocationDriftData,
  LiveAllocationData,
  RouterOptions,
} from './http/routeContext';
export { createRouter } from './http/router';
export {
  INDEX_REFRESH_TASK_ID,
  LIVE_DATA_REFRESH_TASK_ID,
  gpuPlugin as default,
} from './plugin';
export { GitFetchSource } from './repoIndex/gitSnapshot';
export type {
  BlobChanges,
  BlobDiff,
  BlobListing,
  FetchCredentials,
  RepoSource,
} from './repoIndex/gitSnapshot';
export { emptySnapshot } from './repoIndex/indexSnapshot';
export type {
  ClusterIndex,
  IndexSnapshot,
  IndexedWorkload,
  StoredRequest,
} from './repoIndex/indexSnapshot';
export { RepoIndex } from './repoIndex/RepoIndex';
export type { RefreshResult, RepoIndexOptions } from './repoIndex/RepoIndex';
