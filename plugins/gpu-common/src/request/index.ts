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
export { gpuRequestFromFormValues } from './formValues';
export type { GpuRequestFormValues } from './formValues';
export { parseGpuRequestYaml, MAX_REQUEST_YAML_BYTES } from './parseYaml';
export {
  isDns1123Label,
  isDns1123Subdomain,
  isImageReference,
  isOwnerRef,
} from './formats';
export { zodIssuesToInputIssues } from './zodIssues';
export {
  REQUEST_FIELD_LABELS,
  fieldLabel,
  describeIssue,
} from './fieldLabels';
