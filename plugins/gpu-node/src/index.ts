/**
 * GitOps repository I/O, merge engine, kustomize checks, forges and the pull-request body, for the backends and the gpu-gitops CLI.
 *
 * @packageDocumentation
 */
export type { ExistingWorkloadChange } from './changes/applyExistingWorkload';
export { applyPlan } from './changes/applyPlan';
export type { ApplyPlanInput } from './changes/applyPlan';
export { buildRequestChange } from './changes/buildRequestChange';
export {
  withJobTemplateWarningFor,
  type ChangedWorkload,
} from './changes/immutableJobTemplate';
export type { ApplierTool } from './repo/clusterAppliers';
export { applyRelease } from './changes/release/applyRelease';
export type { ApplyReleaseInput } from './changes/release/applyRelease';
export { buildReleaseChange } from './changes/release/buildReleaseChange';
export type {
  BuildReleaseChangeOptions,
  ReleaseChange,
  RequestRef,
} from './changes/release/buildReleaseChange';
export type {
  BuildRequestChangeOptions,
  RequestChange,
  RequestGuard,
} from './changes/buildRequestChange';
export { clusterNotBootstrapped } from './changes/clusterSetup';
export { renderChangeSetDiff } from './changes/diff';
export { writeChangeSet } from './changes/stagedTree';
export type {
  ChangeSet,
  FileChange,
  FileDeletion,
  FileWrite,
} from './changes/types';
export type { VerifyChangeResult } from './changes/verifyChange';
export { gitOpsCacheDirs } from './config/cacheDirs';
export type { GitOpsCacheDirs } from './config/cacheDirs';
export type { ClusterProfilesConfig } from './config/readClusterProfiles';
export {
  DEFAULT_AUTHOR,
  resolveLocalRepoPath,
} from './config/readGitOpsConfig';
export type { GitOpsConfig } from './config/readGitOpsConfig';
export { readGpuConfig } from './config/readGpuConfig';
export type { GpuConfig } from './config/readGpuConfig';
export { readGpuPolicy } from './config/readGpuPolicy';
export { FORGE_KINDS, createForge } from './forges/createForge';
export type { ForgeOptions } from './forges/forgeClient';
export type { RetryOptions } from './forges/http';
export { LocalPullRequests } from './forges/localPullRequests';
export { LocalPullRequestError } from './forges/localPullRequestTypes';
export type {
  DecisionOptions,
  LocalPullRequest,
  LocalPullRequestErrorKind,
  LocalPullRequestWithDiff,
  LocalPullRequestsOptions,
} from './forges/localPullRequestTypes';
export type {
  Forge,
  ForgeKind,
  PullRequestInput,
  PullRequestRef,
  PullRequestResult,
} from './forges/types';
export { gitEnvironment, isLocalRemote } from './git/auth';
export type { GitAuth } from './git/auth';
export { releaseBranchName, requestBranchName } from './git/branchName';
export { forgeApiBaseUrl } from './git/forgeApiBaseUrl';
export { GitOpsRepository } from './git/GitOpsRepository';
export type {
  GitAuthor,
  GitOpsRepositoryOptions,
} from './git/GitOpsRepository';
export type {
  BuildContext,
  BuiltCommit,
  PublishBranchOptions,
  PublishBranchResult,
} from './git/publishBranch';
export {
  gitTokenUsername,
  remoteHost,
  resolveGitCredentials,
} from './git/resolveGitCredentials';
export type { GitCredentials } from './git/resolveGitCredentials';
export { GitTimeoutError, runGit } from './git/runGit';
export type { RunGitOptions } from './git/runGit';
export { kustomizeBuild } from './kustomize/build';
export type { BuiltObject, KustomizeBuildOptions } from './kustomize/build';
export { buildKustomizationRoot } from './kustomize/buildRoot';
export type { BuildRootOptions, BuiltRootResult } from './kustomize/buildRoot';
export {
  KustomizeNotFoundError,
  isKustomizeNotFoundError,
} from './kustomize/errors';
export {
  foldersBuiltBy,
  isKustomizationFile,
  readKustomizationGraph,
} from './kustomize/roots';
export type {
  KustomizationFolder,
  KustomizationGraph,
} from './kustomize/roots';
export { compileRepoLayout } from './layout/compileRepoLayout';
export type {
  CompiledRepoLayout,
  LayoutPlace,
} from './layout/compileRepoLayout';
export {
  clusterKustomizationPath,
  layoutPrefix,
  resolveLayout,
} from './layout/layout';
export type {
  LayoutEntry,
  LayoutInput,
  RepoLayout,
  ResolvedRepoLayout,
} from './layout/layout';
export {
  EMPTY_POLICY,
  formatGpus,
  normalizeOwnerRef,
  throwIfIssues,
} from './policy/gpuPolicy';
export type { GpuPolicy, OwnerPolicyRule } from './policy/gpuPolicy';
export type { QuotaScope } from './policy/gpuUsage';
export { capabilitiesForOwner } from './policy/ownerCapabilities';
export { ownerPolicyCheck, quotaUseOf } from './policy/ownerPolicyCheck';
export type {
  OwnerPolicyCheck,
  RequestQuotaScope,
} from './policy/ownerPolicyCheck';
export { readRequestOwners } from './policy/requestOwners';
export { renderPullRequest } from './pr/renderPullRequest';
export type { ReleasePullRequestView } from './pr/releaseView';
export type { PullRequestChangeView } from './pr/changeView';
export type {
  PullRequestTemplates,
  RenderPullRequestInput,
  RenderedPullRequest,
} from './pr/renderPullRequest';
export type { ExistingWorkloadFacts, PullRequestView } from './pr/view';
export type { GitOpsTargetOptions } from './publish/gitopsTarget';
export type {
  ChangeDescription,
  PublishedChange,
} from './publish/publishChange';
export { publishGpuRelease } from './publish/publishGpuRelease';
export type {
  PublishGpuReleaseOptions,
  PublishGpuReleaseResult,
  ReleasePublishFacts,
} from './publish/publishGpuRelease';
export { publishGpuRequest } from './publish/publishGpuRequest';
export type {
  PublishGpuRequestOptions,
  PublishGpuRequestResult,
  RequestPublishFacts,
} from './publish/publishGpuRequest';
export { sparseFoldersFor } from './publish/sparseFolders';
export { clusterReach } from './publish/clusterReach';
export type { SparseReach } from './git/sparseReach';
export type { StageTiming } from './publish/stages';
export { updateOpenPullRequests } from './publish/updateOpenPullRequests';
export type {
  PullRequestUpdate,
  PullRequestUpdateOutcome,
  UpdateOpenPullRequestsOptions,
} from './publish/updateOpenPullRequests';
export { Redactor, redactCredentialPatterns } from './redact';
export type { PublishLogger } from './redact';
export {
  clusterFolderFileHolds,
  parseClusterFolderPools,
} from './repo/clusterFolderFiles';
export type { ClusterFolderFileHolds } from './repo/clusterFolderFiles';
export {
  handWrittenConfigMaps,
  handWrittenConfigsByName,
} from './repo/handWrittenConfigMaps';
export { parseDevicePluginConfigs } from './repo/parseDevicePluginConfigs';
export { parseMigConfigs } from './repo/parseMigConfigs';
export { parsePools } from './repo/parsePools';
export type { ParsedPools, PoolConfigs } from './repo/parsePools';
export { parseWorkloads } from './repo/parseWorkloads';
export { parseYamlFile } from './repo/readDocuments';
export { readRepoState } from './repo/readRepoState';
export type {
  ReadRepoStateOptions,
  RepoStateReport,
} from './repo/readRepoState';
export { gpuPoolShapes } from './repo/gpuPoolShapes';
export { withTopologyDocuments } from './repo/topologyMachineDeployments';
export { nodeOverlaysAmong } from './repo/nodeOverlaysAmong';
export { isClusterReleaseFile } from './changes/bootstrap/helmReleases/findHelmReleases';
export type { RepositoryFile } from './changes/bootstrap/helmReleases/valuesConfigMaps';
export {
  gpuStackFileRole,
  readGpuStack,
  releasesTakeValuesFrom,
} from './repo/gpuStack/readGpuStack';
export { FsRepoTree, MemoryRepoTree } from './repo/tree';
export { GitCheckoutTree } from './repo/gitCheckoutTree';
export {
  eventLoopTurns,
  processTurns,
  runStepsInTurns,
} from './repo/eventLoopTurns';
export { runBounded } from './runBounded';
export { ParseCache } from './repo/parseCache';
export type { FileParser, ParseCacheOptions } from './repo/parseCache';
export type { RepoTree } from './repo/tree';
export { asKubernetesObject } from './repo/yamlObjects';
export type {
  ParsedDocument,
  PlainObject,
  SkippedFile,
} from './repo/yamlObjects';
export { gpuRequestInputProperties } from './templateInputs/gpuRequestInputProperties';
export {
  EXISTING_WORKLOAD_DEFAULTS,
  GPU_WORKLOAD_DEFAULTS,
  gpuWorkloadValues,
} from './templateInputs/gpuWorkloadValues';
export type { Finding } from './validate/findings';
export {
  validateGitOpsTree,
  validateGitOpsTreeReport,
} from './validate/validateGitOpsTree';
export type {
  GitOpsTreeReport,
  ValidateGitOpsTreeOptions,
} from './validate/validateGitOpsTree';
export type { OwnPatch } from './workloads/currentWorkload';
export { withDeployedReplicas } from './workloads/deployedReplicas';
export { readKustomizations } from './workloads/kustomizations';
export type {
  KustomizationIndex,
  KustomizationInfo,
} from './workloads/kustomizations';
export type { PreparedExistingWorkload } from './workloads/prepareExistingWorkload';
export { readWorkloadObjects } from './workloads/workloadObjects';
export type { ParsedFiles } from './workloads/workloadObjects';
export type {
  ExistingWorkloadApply,
  ExistingWorkloadLocation,
} from './workloads/resolveExistingWorkload';
