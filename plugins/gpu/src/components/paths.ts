/**
 * Where the GPU page is, for the links of the card, the tab and the review
 * page: `/gpu`, the path the new system's page takes and the legacy setup
 * mounts `GpuOverviewPage` at (its README), as the review page is at
 * gpu-common's GPU_PULL_REQUESTS_PATH.
 */
export const GPU_OVERVIEW_PATH = '/gpu';
