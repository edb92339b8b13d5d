/**
 * Scaffolder actions gpu:plan, gpu:gitops:render, gpu:gitops:pull-request and
 * gpu:gitops:bootstrap for the GPU GitOps self-service.
 *
 * @packageDocumentation
 */
export { scaffolderModuleGpu as default } from './module';
export { createGpuPlanAction } from './actions/gpuPlan';
export { createGpuGitopsRenderAction } from './actions/gpuGitopsRender';
export { createGpuGitopsPullRequestAction } from './actions/gpuGitopsPullRequest';
export { createGpuGitopsBootstrapAction } from './actions/gpuGitopsBootstrap';
export {
  createGpuActionServices,
  type GpuActionServices,
} from './services/gpuActionServices';
export {
  EXISTING_WORKLOAD_DEFAULTS,
  GPU_WORKLOAD_DEFAULTS,
  gpuWorkloadValues,
} from './templates/gpuWorkloadValues';
