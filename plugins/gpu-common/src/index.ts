/**
 * GPU catalog, request schema, planner, MIG fit solver and manifest builders.
 * Isomorphic: no Node APIs, so the frontend form can plan too.
 *
 * @packageDocumentation
 */
export * from './errors';
export type * from './catalog/types';
export type * from './cluster/types';
export type * from './request/types';
export { SHARING_MODES, WORKLOAD_KINDS } from './request/types';
export type * from './planner/types';
export type * from './manifests/types';
export * from './catalog/builtin';
export * from './catalog/lookup';
export * from './catalog/mps';
export * from './catalog/override';
export * from './mig/fit';
export * from './mig/names';
export * from './mig/select';
export * from './mig/profile-name';
export { packMigInstances } from './mig/pack';
export type { PackResult } from './mig/pack';
export * from './manifests';
export {
  gpuRequestSchema,
  parseGpuRequest,
  parseGpuRequestYaml,
  GPU_REQUEST_API_VERSION,
  MAX_REQUEST_YAML_BYTES,
  isDns1123Label,
  isDns1123Subdomain,
  zodIssuesToInputIssues,
  REQUEST_FIELD_LABELS,
  fieldLabel,
  describeIssue,
  gpuRequestFromFormValues,
} from './request';
export type { GpuRequestFormValues } from './request';
export {
  defaultClusterProfile,
  clusterProfileSchema,
  resolveClusterProfile,
  karpenterSupportsGte,
  parseKarpenterVersion,
  clusterCapabilities,
  modelUnavailable,
  modeUnavailableForModel,
  sharingModeUnavailable,
  unavailableIssue,
} from './cluster';
export type {
  ClusterProfileOverride,
  ClusterCapabilities,
  ModelCapability,
  SharingModeCapability,
  Unavailable,
} from './cluster';
export {
  plan,
  devicePluginConfigFor,
  devicePluginConfigName,
  contentHash,
  canonicalJson,
  DRA_DEVICE_CLASS,
  OVERSUBSCRIBED_PREFIX,
} from './planner';
export * from './validation';
export * from './output/plan-json';
export * from './output/plan-text';
export * from './output/cost-text';
export * from './output/existing-workload-text';
export type * from './allocation/types';
export type * from './allocation/request-form';
export * from './catalog/model-choices';
export * from './yaml/readPlainYaml';
export * from './capacity/poolNeed';
export * from './gitops/repoUrl';
export * from './capacity/ledger';
export {
  poolLimits,
  poolWithout,
  ledgerOf,
  derivedPoolLimit,
  requestId,
  NODES_LIMIT,
} from './planner/pool-limits';
export { sizingOfPool, machinesOfPool } from './planner/pool-sizing';
export {
  gpuShareOfUnit,
  gpuShareOfUnits,
  liveMigLayout,
  poolCapacityUnits,
  unitsPerGpuOf,
} from './capacity/poolUnits';
export { costOfPool, poolCostView, poolCostSummary } from './planner/pool-cost';
export { replicaOnPool } from './planner/replica-on-pool';
export type { ReplicaOnPool } from './planner/replica-on-pool';
export * from './capacity/poolCost';
export * from './format';
export type { PoolCapacity, PoolSizing } from './planner/pool-limits';
export { systemNamespacesOf } from './planner/system-namespaces';
export * from './gitops/timeout';
export * from './permissions';
export { roundDecimals } from './numbers/roundDecimals';
export { compareStrings } from './text/compareStrings';
export { entityWorkload } from './entity/entityWorkload';
export type {
  EntityWorkload,
  EntityMetadataView,
} from './entity/entityWorkload';
export type * from './pullRequests/types';
export * from './pullRequests/reviewPage';
