export { GpuPoolsContent } from './GpuPoolsContent';
