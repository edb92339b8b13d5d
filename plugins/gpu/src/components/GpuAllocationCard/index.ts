export { GpuAllocationCard, GPU_TEMPLATE_PATH } from './GpuAllocationCard';
