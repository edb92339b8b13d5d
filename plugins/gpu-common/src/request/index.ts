export type * from './types';
export { SHARING_MODES, WORKLOAD_KINDS } from './types';
export {
  gpuRequestSchema,
  parseGpuRequest,
  GPU_REQUEST_API_VERSION,
  MAX_REPLICAS,
  MAX_VRAM_GIB,
  MAX_GPUS_PER_REPLICA,
  MAX_SLICES_PER_GPU,
} from './schema';
export { gpuRequestFromFormValues } from './form-values';
export type { GpuRequestFormValues } from './form-values';
export { parseGpuRequestYaml, MAX_REQUEST_YAML_BYTES } from './parse-yaml';
export {
  isDns1123Label,
  isDns1123Subdomain,
  isImageReference,
  isOwnerRef,
} from './formats';
export { zodIssuesToInputIssues } from './zod-issues';
export {
  REQUEST_FIELD_LABELS,
  fieldLabel,
  describeIssue,
} from './field-labels';
