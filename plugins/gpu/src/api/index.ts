export { gpuApiRef } from './GpuApi';
export type { GpuApi } from './GpuApi';
export { GpuClient } from './GpuClient';
export { GpuPlanRejectedError } from './GpuPlanRejectedError';
