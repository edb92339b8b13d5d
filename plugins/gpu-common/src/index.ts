/**
 * GPU catalog, request schema, planner, MIG fit solver and manifest builders.
 * Isomorphic: no Node APIs, so the frontend form can plan too.
 *
 * @packageDocumentation
 */
export type {
  ClustersResponse,
  PlanIssue,
  PlanRefusalResponse,
  QuotaUse,
} from './allocation/request-form';
export type {
  AllocationResponse,
  GpuAllocation,
  MigGpuPicture,
  PlanPreviewResponse,
  PoolCostSummary,
  PoolSummary,
  PoolsResponse,
  RepositoryWorkload,
  WorkloadsResponse,
} from './allocation/types';
export { formatLedger, parseLedger } from './capacity/ledger';
export type { LedgerEntry } from './capacity/ledger';
export type { CostShare, PoolCost, PoolNodes } from './capacity/poolCost';
export {
  gpusNeeded,
  nodesNeeded,
  referenceNodeShape,
} from './capacity/poolNeed';
export type { NodeShape, ReplicaGroup } from './capacity/poolNeed';
export {
  gpuShareOfUnit,
  liveMigLayout,
  poolCapacityUnits,
  unitsPerGpuOf,
} from './capacity/poolUnits';
export { builtinCatalog } from './catalog/builtin';
export { findInstanceType, findModel } from './catalog/lookup';
export { gpuModelChoices } from './catalog/model-choices';
export type { GpuModelChoice } from './catalog/model-choices';
export { catalogOverrideSchema, mergeCatalog } from './catalog/override';
export type {
  GpuArchitecture,
  GpuCatalog,
  GpuModel,
  InstanceType,
  MachineProvider,
  MigGeometry,
  MigProfile,
} from './catalog/types';
export { clusterCapabilities } from './cluster/capabilities';
export type {
  ClusterCapabilities,
  ModelCapability,
  SharingModeCapability,
  Unavailable,
} from './cluster/capabilities';
export { defaultClusterProfile } from './cluster/defaults';
export { clusterProfileSchema, resolveClusterProfile } from './cluster/schema';
export type { ClusterProfileOverride } from './cluster/schema';
export type {
  ClusterProfile,
  ClusterProvider,
  ConfigMapRef,
  MigStrategy,
} from './cluster/types';
export { entityWorkload } from './entity/entityWorkload';
export type {
  EntityMetadataView,
  EntityWorkload,
} from './entity/entityWorkload';
export { GpuInputError, isGpuInputError } from './errors';
export type { InputIssue } from './errors';
export { centsToUsd, formatUsd, usdToCents } from './format/money';
export {
  formatGiB,
  formatGpuShare,
  formatReplicaGpuShare,
  formatRequestedGiB,
} from './format/units';
export {
  checkGitOpsRepoUrl,
  redactRepoUrl,
  repoUrlCarriesCredentials,
} from './gitops/repoUrl';
export type {
  CheckGitOpsRepoUrlOptions,
  GitOpsRepoUrlKind,
} from './gitops/repoUrl';
export { DEFAULT_GITOPS_TIMEOUT_MS, gitOpsTimeoutMs } from './gitops/timeout';
export { buildManifests } from './manifests/build-manifests';
export type { BuildManifestsOptions } from './manifests/build-manifests';
export { chooseContainer } from './manifests/choose-container';
export type { ContainerChoiceWorkload } from './manifests/choose-container';
export {
  buildEc2NodeClass,
  shouldGenerateEc2NodeClass,
} from './manifests/ec2-node-class';
export {
  MANAGED_BY,
  WELL_KNOWN_KEYS,
  gpuAnnotationKeys,
} from './manifests/metadata-keys';
export type { GpuAnnotationKeys } from './manifests/metadata-keys';
export { podPlacement } from './manifests/pod-placement';
export type { PodPlacement } from './manifests/pod-placement';
export { strategicMerge } from './manifests/strategic-merge';
export { untoleratedTaints } from './manifests/tolerations';
export type { NodeTaint, PodToleration } from './manifests/tolerations';
export type {
  DevicePluginConfig,
  KubernetesObject,
  ManifestSet,
  MigConfigEntry,
  SharingResources,
} from './manifests/types';
export { buildWorkloadPatch } from './manifests/workload-patch';
export type { PatchTarget } from './manifests/workload-patch';
export {
  isWorkloadKind,
  scaledByKustomizeReplicas,
  viewWorkload,
  workloadShape,
} from './manifests/workload-shape';
export type {
  ContainerView,
  WorkloadShape,
  WorkloadView,
} from './manifests/workload-shape';
export { fitMig } from './mig/fit';
export type { MigFitResult } from './mig/fit';
export type { MigPlacement } from './mig/pack';
export { roundDecimals } from './numbers/roundDecimals';
export { describeCost } from './output/cost-text';
export type { CostText } from './output/cost-text';
export {
  describeExistingWorkload,
  formatReplicaCount,
} from './output/existing-workload-text';
export type { ExistingWorkloadFacts } from './output/existing-workload-text';
export { planToJson } from './output/plan-json';
export type { PlanJson } from './output/plan-json';
export { formatPlanText } from './output/plan-text';
export {
  gpuPermissions,
  gpuPullRequestClosePermission,
  gpuPullRequestMergePermission,
} from './permissions';
export type { CatalogIndex } from './planner/catalog-index';
export { plan } from './planner/plan';
export { costOfPool, poolCostSummary } from './planner/pool-cost';
export { derivedPoolLimit } from './planner/pool-limits';
export type { PoolSizing } from './planner/pool-limits';
export { sizingOfPool } from './planner/pool-sizing';
export { replicaOnPool } from './planner/replica-on-pool';
export type { ReplicaOnPool } from './planner/replica-on-pool';
export type {
  LeftPool,
  Plan,
  PlanCost,
  PlanDecision,
  PlanDecisions,
  PoolCostView,
  PoolPlan,
  PoolState,
  RepoState,
  SharingPlan,
  Taint,
  WorkloadState,
} from './planner/types';
export {
  GPU_PULL_REQUESTS_PATH,
  pullRequestBranch,
  pullRequestPageUrl,
} from './pullRequests/reviewPage';
export type {
  GpuPullRequest,
  GpuPullRequestDetail,
  GpuPullRequestFile,
  GpuPullRequestMergeResponse,
  GpuPullRequestMergeability,
  GpuPullRequestsResponse,
} from './pullRequests/types';
export { describeIssue, fieldLabel } from './request/field-labels';
export { gpuRequestFromFormValues } from './request/form-values';
export type {
  BlankFormValue,
  GpuRequestFormValues,
} from './request/form-values';
export { parseGpuRequestYaml } from './request/parse-yaml';
export { parseGpuRequest } from './request/schema';
export { SHARING_MODES, WORKLOAD_KINDS } from './request/types';
export type {
  CapacityType,
  ExistingWorkloadRef,
  GpuRequest,
  SharingMode,
  WorkloadKind,
} from './request/types';
export { compareStrings } from './text/compareStrings';
export { checkDevicePluginConfig } from './validation/device-plugin-config';
export type { DevicePluginConfigCheckOptions } from './validation/device-plugin-config';
export type { ValidationFinding } from './validation/finding';
export { checkKarpenterLabels } from './validation/karpenter-labels';
export type { KarpenterLabelOptions } from './validation/karpenter-labels';
export { checkMigPartedConfig } from './validation/mig-parted-config';
export { checkNodePoolRules } from './validation/node-pool-rules';
export type { NodePoolRuleOptions } from './validation/node-pool-rules';
export { readPlainYamlDocuments } from './yaml/readPlainYaml';
