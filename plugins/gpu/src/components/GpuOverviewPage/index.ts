export { GpuOverview } from './GpuOverviewPage';
