export { GpuOpenPullRequests } from './GpuOpenPullRequests';
