/**
 * Scaffolder actions gpu:plan, gpu:gitops:render, gpu:gitops:pull-request and
 * gpu:gitops:bootstrap for the GPU GitOps self-service.
 *
 * @packageDocumentation
 */
export { createGpuGitopsBootstrapAction } from './actions/gpuGitopsBootstrap';
export { createGpuGitopsPullRequestAction } from './actions/gpuGitopsPullRequest';
export { createGpuGitopsImportAction } from './actions/gpuGitopsImport';
export { createGpuGitopsReleaseAction } from './actions/gpuGitopsRelease';
export { createGpuGitopsRenderAction } from './actions/gpuGitopsRender';
export { createGpuPlanAction } from './actions/gpuPlan';
export { scaffolderModuleGpu as default } from './module';
export type { ClusterProfiles } from './services/clusterProfiles';
export { createGpuActionServices } from './services/gpuActionServices';
export type { GpuActionServices } from './services/gpuActionServices';
