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
} from './allocation/requestForm';
export type {
  AllocationResponse,
  AllocationUtilization,
  DriftFinding,
  DriftKind,
  GpuAllocation,
  LiveDataStatus,
  MigGpuPicture,
  PlanPreviewResponse,
  PoolCostSummary,
  PoolSummary,
  PoolUtilization,
  PoolsResponse,
  RepositoryWorkload,
  RightSizeResponse,
  RightSizeSuggestion,
  WorkloadsResponse,
} from './allocation/types';
export { poolUsage } from './allocation/poolUsage';
export { allocationPoolLabel } from './allocation/allocationPoolLabel';
export {
  formatGpuEquivalents,
  gpuHoldingTitle,
} from './output/gpuHoldingTitle';
export type { GpuHolding } from './output/gpuHoldingTitle';
export type { PoolUsage } from './allocation/poolUsage';
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
export { gpuModelChoices } from './catalog/modelChoices';
export type { GpuModelChoice } from './catalog/modelChoices';
export { catalogOverrideSchema, mergeCatalog } from './catalog/override';
export type {
  GpuArchitecture,
  GpuCatalog,
  GpuModel,
  InstanceType,
  MachineProvider,
  MigGeometry,
  MigProfile,
  VSphereMachine,
} from './catalog/types';
export {
  clusterCapabilities,
  poolTaintNotApplied,
  sharingModeUnavailable,
} from './cluster/capabilities';
export {
  devicePluginSlicing,
  type DevicePluginSlicing,
} from './planner/devicePluginSlicing';
export { DEVICE_PLUGIN_DEPLOY_LABEL } from './planner/sharingDra';
export type {
  ChartFeatureDiscovery,
  ClusterGpuStack,
  DeployedDevicePlugin,
  DeployedDraDriver,
  MigManagerConfigElsewhere,
  OperatorDefaultSharing,
  OtherDevicePlugin,
  StackSetting,
} from './cluster/gpuStack';
export type {
  ClusterCapabilities,
  ModelCapability,
  SharingModeCapability,
} from './cluster/capabilities';
export type { Unavailable } from './cluster/unavailable';
export { defaultClusterProfile } from './cluster/defaults';
export { clusterProfileSchema, resolveClusterProfile } from './cluster/schema';
export {
  karpenterHasNodeOverlayGate,
  karpenterProvisionsDra,
  karpenterServesOnlyV1,
} from './cluster/karpenterVersion';
export type { ClusterProfileOverride } from './cluster/schema';
export type {
  ClusterApiInfrastructure,
  ClusterApiSettings,
} from './cluster/clusterApi';
export type { ClusterApiOpenStackSettings } from './cluster/clusterApiOpenStack';
export type {
  ClusterApiVSphereSettings,
  VSphereCloneMode,
  VSphereIpPool,
  VSphereNetworkDevice,
} from './cluster/clusterApiVSphere';
export type {
  ClusterApiMetal3Settings,
  Metal3Image,
} from './cluster/clusterApiMetal3';
export type { ClusterApiAzureSettings } from './cluster/clusterApiAzure';
export type { ClusterApiAwsSettings } from './cluster/clusterApiAws';
export type {
  StaticNode,
  StaticNodeSelection,
  StaticNodesSettings,
} from './cluster/staticNodes';
export type {
  ClusterProfile,
  ClusterProvider,
  ConfigMapRef,
  MigStrategy,
} from './cluster/types';
export type { ClusterDraSettings } from './cluster/draSettings';
export { profileEnablesDra } from './cluster/draSettings';
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
  checkForgeApiUrl,
  checkGitOpsRepoUrl,
  redactRepoUrl,
  repoUrlCarriesCredentials,
} from './gitops/repoUrl';
export type {
  CheckGitOpsRepoUrlOptions,
  GitOpsRepoUrlKind,
} from './gitops/repoUrl';
export { DEFAULT_GITOPS_TIMEOUT_MS, gitOpsTimeoutMs } from './gitops/timeout';
export { buildManifests } from './manifests/buildManifests';
export { keptStaticNodes } from './planner/staticInventory';
export type { BuildManifestsOptions } from './manifests/buildManifests';
export { chooseContainer } from './manifests/chooseContainer';
export type { ContainerChoiceWorkload } from './manifests/chooseContainer';
export { buildEc2NodeClass } from './manifests/ec2NodeClass';
export { buildAksNodeClass } from './manifests/aksNodeClass';
export { poolNodeLabel, poolSelectedBy } from './providers/poolNodeLabel';
export {
  COMPUTE_CLASS,
  computeClassNodes,
  gkePoolNodeLabels,
  gkeModelOfAccelerator,
  GKE_NODE_LABELS,
  type ComputeClassNodes,
} from './manifests/computeClass';
export { generatedNodeClass, poolProviderOf } from './providers/poolProviders';
export { clusterApiSettingsOf } from './providers/clusterApiPool';
export {
  KARPENTER_GPU_COUNT_LABELS,
  KARPENTER_NODE_CLASSES,
  machineProviderOfNodeClass,
  NODE_CLASS_KINDS,
} from './providers/karpenterMachines';
export { allowedCapacityTypes } from './providers/karpenterRequirements';
export {
  excludesGpuMachines,
  gpuModelOfRequirements,
  requiresGpuMachines,
} from './providers/gpuMachineLabels';
export { CLUSTER_API_TEMPLATE_KINDS } from './manifests/clusterApi/clusterApiGroups';
export { templateName } from './manifests/clusterApi/templateName';
export type { NodeSelectorRequirement } from './manifests/nodeSelectorRequirement';
export type {
  KarpenterGpuLabels,
  KarpenterMachines,
  PoolProvider,
} from './providers/types';
export {
  MANAGED_BY,
  WELL_KNOWN_KEYS,
  gpuAnnotationKeys,
} from './manifests/metadataKeys';
export type { GpuAnnotationKeys } from './manifests/metadataKeys';
export { nodeOverlayName } from './manifests/nodeOverlay';
export { resourceClaimTemplateName } from './manifests/resourceClaimTemplate';
export { DRA_CLAIM_NAME, podPlacement } from './manifests/podPlacement';
export type { PodPlacement } from './manifests/podPlacement';
export { strategicMerge } from './manifests/strategicMerge';
export { tolerates, untoleratedTaints } from './manifests/tolerations';
export type { NodeTaint, PodToleration } from './manifests/tolerations';
export type {
  DevicePluginConfig,
  KubernetesObject,
  ManifestSet,
  MigConfigEntry,
  SharingResources,
} from './manifests/types';
export { buildWorkloadPatch } from './manifests/workloadPatch';
export type { PatchTarget } from './manifests/workloadPatch';
export {
  describeSelectorChanges,
  existingSelectorPatch,
  withSelectorWarnings,
} from './manifests/existingSelectors';
export type {
  SelectorChange,
  SelectorPatch,
  WorkloadSelection,
} from './manifests/existingSelectors';
export type {
  NodeSelectorExpression,
  NodeSelectorTerm,
} from './manifests/contradictingSelectors';
export {
  isWorkloadKind,
  scaledByKustomizeReplicas,
  viewWorkload,
  workloadShape,
} from './manifests/workloadShape';
export type {
  ContainerView,
  WorkloadShape,
  WorkloadView,
} from './manifests/workloadShape';
export { fitMig } from './mig/fit';
export type { MigFitResult } from './mig/fit';
export type { MigPlacement } from './mig/pack';
export { roundDecimals } from './numbers/roundDecimals';
export { describeCost } from './output/costText';
export type { CostText } from './output/costText';
export {
  describeExistingWorkload,
  formatReplicaCount,
} from './output/existingWorkloadText';
export type { ExistingWorkloadFacts } from './output/existingWorkloadText';
export { planToJson } from './output/planJson';
export type { PlanJson } from './output/planJson';
export { formatPlanText } from './output/planText';
export {
  gpuPermissions,
  gpuPullRequestClosePermission,
  gpuPullRequestMergePermission,
} from './permissions';
export type { CatalogIndex } from './planner/catalogIndex';
export { handWrittenConfigMapReadBy } from './planner/handWrittenConfigs';
export { plan, planSteps } from './planner/plan';
export { runSteps } from './steps';
export { WHOLE_GPU_RESOURCE } from './planner/modeDecision';
export { costOfPool, poolCostSummary } from './planner/poolCost';
export { derivedPoolLimit } from './planner/poolLimits';
export type { PoolSizing } from './planner/poolLimits';
export { sizingOfPool } from './planner/poolSizing';
export {
  gpuModelsPoolAllows,
  machinesRequirementsAllow,
} from './planner/poolMachines';
export { replicaOnPool } from './planner/replicaOnPool';
export type { ReplicaOnPool } from './planner/replicaOnPool';
export type {
  HandWrittenConfigMap,
  HandWrittenConfigMapRef,
  LeftPool,
  Plan,
  PlanCost,
  PlanDecision,
  PlanDecisions,
  PlanPrevious,
  PoolCostView,
  PoolPlan,
  PoolState,
  RepoState,
  SharingPlan,
  Taint,
  WorkloadState,
} from './planner/types';
export { GPU_BRANCH_PREFIX } from './pullRequests/gpuBranchPrefix';
export {
  DEFAULT_DEVICE_PLUGIN_CONFIG,
  DEFAULT_MIG_CONFIG,
} from './manifests/defaultConfigNames';
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
  GpuPullRequestRefusal,
  GpuPullRequestRefusalResponse,
  GpuPullRequestsResponse,
} from './pullRequests/types';
export { planRelease, requestNotHeld } from './release/planRelease';
export { releaseSavingsText } from './release/releaseSavings';
export type {
  ReleasedPool,
  ReleaseLeftObject,
  ReleasePlan,
} from './release/types';
export { describeIssue, fieldLabel } from './request/fieldLabels';
export {
  checkExpiryAtCreation,
  daysUntilExpiry,
  expiresAfterDays,
  expiryLabel,
  isExpired,
  MAX_RELEASE_AFTER_DAYS,
} from './lifecycle/expiry';
export { gpuRequestFromFormValues } from './request/formValues';
export { isOwnerRef } from './request/formats';
export type {
  BlankFormValue,
  GpuRequestFormValues,
} from './request/formValues';
export { parseGpuRequestYaml } from './request/parseYaml';
export { parseGpuRequest } from './request/schema';
export { SHARING_MODES, WORKLOAD_KINDS } from './request/types';
export type {
  CapacityType,
  ExistingWorkloadRef,
  GpuRequest,
  SharingMode,
  WorkloadKind,
} from './request/types';
export {
  advertisedPerNode,
  advertisedResources,
  migInstancesPerGpu,
  type AdvertisedResource,
} from './scheduling/advertisedResources';
export type {
  AdvertisedNodeResource,
  LabelAllowance,
  PoolNodeShape,
} from './scheduling/nodeShape';
export { labelAllowance } from './scheduling/nodeShape';
export {
  kubeletNodeLabels,
  nodeShapeOf,
  type PoolObjectLike,
} from './scheduling/nodeShapeOf';
export {
  applyNodeOverlays,
  overlayReachesPool,
  type NodeOverlayLike,
  type NodeOverlayOutcome,
  type OverlaidMachine,
  type OverlaidPool,
  type OverlaidValue,
} from './scheduling/nodeOverlays';
export {
  poolGpuProducts,
  type PoolGpuFacts,
} from './scheduling/poolGpuProducts';
export {
  nfdGpuNodeClasses,
  nfdRulesOnModelNodes,
  type NfdRuleLabels,
} from './scheduling/nfdRuleLabels';
export {
  isNvidiaResource,
  podSchedulingOf,
  type PodScheduling,
} from './scheduling/podScheduling';
export {
  landingPools,
  landingRefusal,
  type Landing,
  type LandingRefusal,
} from './scheduling/landingPools';
export {
  landingModel,
  landOn,
  type LandingModel,
} from './scheduling/landingModel';
export { landingRefusalsText } from './scheduling/landingRefusalsText';
export {
  clusterLandingModel,
  type ClusterGpuNodes,
} from './scheduling/clusterLanding';
export {
  overlayMayMatchShape,
  withOverlaidResources,
} from './scheduling/overlaidShapes';
export {
  unpooledNodesText,
  withUnpooledGpuNodes,
} from './scheduling/unpooledGpuNodes';
export {
  ledgeredPools,
  placedWorkload,
  placeWorkload,
  type PlacementModel,
  type WorkloadPlacement,
} from './scheduling/workloadPlacement';
export {
  devicePluginService,
  type PoolDevicePluginService,
} from './scheduling/devicePluginService';
export { operatorDefaultConfigOn } from './scheduling/operatorDefaultConfig';
export {
  nodeClassConfig,
  type NodeClassConfig,
} from './planner/nodeClassConfig';
export {
  BIN_PACKING_SCHEDULER_NAME,
  BIN_PACKING_SCHEDULER_NAMESPACE,
  BIN_PACKING_SCHEDULER_POD_LABELS,
  binPackingVersionProblem,
  gpuSchedulerName,
  kubeSchedulerVersion,
  patchedSchedulerName,
} from './scheduling/binPackingScheduler';
export { compareStrings } from './text/compareStrings';
export { checkDevicePluginConfig } from './validation/devicePluginConfig';
export type { DevicePluginConfigCheckOptions } from './validation/devicePluginConfig';
export type { ValidationFinding } from './validation/finding';
export { checkKarpenterLabels } from './validation/karpenterLabels';
export type { KarpenterLabelOptions } from './validation/karpenterLabels';
export { checkMigPartedConfig } from './validation/migPartedConfig';
export { checkNodePoolRules } from './validation/nodePoolRules';
export type { NodePoolRuleOptions } from './validation/nodePoolRules';
export { readPlainYamlDocuments } from './yaml/readPlainYaml';
export {
  DEFAULT_KUEUE_VERSION,
  flavorQuotaIssues,
  KUEUE_API_VERSION,
  kueueDeviceClassMappings,
  missingDeviceClassMappings,
  kueueResourceName,
  kueueVersionOf,
  QUEUE_NAME_LABEL,
  planKueue,
  stateAfterPlan,
  stateAfterRelease,
  teamQueueName,
} from './kueue';
export type {
  FlavorCapacity,
  FlavorQuota,
  KueueCohortLimits,
  KueueDeviceClassMapping,
  KueueInputs,
  KueueObject,
  KueuePlan,
} from './kueue';
