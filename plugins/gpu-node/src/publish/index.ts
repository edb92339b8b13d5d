export * from './publishGpuRequest';
export { sparseFoldersFor } from './sparseFolders';
export type { StageTiming } from './stages';
export * from './updateOpenPullRequests';
