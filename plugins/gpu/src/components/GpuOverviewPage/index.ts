export { GpuOverviewPage } from './GpuOverviewPage';
