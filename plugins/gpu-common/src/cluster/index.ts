export type * from './types';
export type * from './gpuStack';
export { defaultClusterProfile } from './defaults';
export {
  clusterProfileSchema,
  resolveClusterProfile,
  type ClusterProfileOverride,
} from './schema';
export {
  karpenterHasNodeOverlayGate,
  karpenterSupportsGte,
  parseKarpenterVersion,
} from './karpenterVersion';
export {
  clusterCapabilities,
  modelUnavailable,
  modeUnavailableForModel,
  sharingModeUnavailable,
  unavailableIssue,
  type ClusterCapabilities,
  type ModelCapability,
  type SharingModeCapability,
} from './capabilities';
export type { Unavailable } from './unavailable';
