export * from './applyPlan';
export { conflictError } from './conflict';
export { renderChangeSetDiff, renderFileChangeDiff, diffLines } from './diff';
export { StagedTree, writeChangeSet } from './stagedTree';
export type * from './types';
export * from './buildRequestChange';
export type { ExistingWorkloadChange } from './applyExistingWorkload';
export * from './clusterSetup';
