import type { GpuApi } from '../api/GpuApi';

/** A GpuApi whose unused methods fail loudly, so a test sees unexpected calls. */
export function fakeGpuApi(overrides: Partial<GpuApi>): GpuApi {
  const unexpected = () => Promise.reject(new Error('not used by this test'));
  return {
    getAllocation: unexpected,
    getRightSize: unexpected,
    getPools: unexpected,
    getPool: unexpected,
    getWorkloads: unexpected,
    previewPlan: unexpected,
    getClusters: unexpected,
    getQuota: unexpected,
    listPullRequests: unexpected,
    getPullRequest: unexpected,
    mergePullRequest: unexpected,
    closePullRequest: unexpected,
    ...overrides,
  };
}
