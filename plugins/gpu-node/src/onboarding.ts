/**
 * Onboarding a cluster onto GPU GitOps, once per cluster: the bootstrap (the
 * GPU stack, the node pool's provider objects, the device-plugin and MIG
 * configs' defaults) and the import (a cluster's existing GPU setup adopted),
 * each with its pull request's report and its publisher. Imported as
 * `@gpu-gitops/plugin-gpu-node/onboarding`, apart from the everyday library
 * (requests and releases), so that the everyday API stays what a request
 * needs and an onboarding change is reviewed against its own API report.
 *
 * @packageDocumentation
 */
export {
  DEFAULT_OPERATOR_CHART_VERSION,
  buildBootstrapChangeSet,
} from './changes/bootstrap/bootstrapChangeSet';
export type {
  BootstrapChangeSet,
  BootstrapOptions,
} from './changes/bootstrap/bootstrapChangeSet';
export {
  bootstrapPullRequestTitle,
  renderBootstrapBody,
} from './pr/renderBootstrapBody';
export { bootstrapBranchName } from './git/branchName';
export { publishGpuBootstrap } from './publish/publishGpuBootstrap';
export type {
  BootstrapPublishFacts,
  PublishGpuBootstrapOptions,
  PublishGpuBootstrapResult,
} from './publish/publishGpuBootstrap';
export { buildImportChange } from './import/buildImportChange';
export type {
  AdoptedPool,
  BuildImportChangeOptions,
  ImportChange,
  ImportedObject,
  ImportedRequestRecord,
} from './import/buildImportChange';
export type {
  ImportFinding,
  ImportFindingKind,
} from './import/convert/findings';
export { renderImportReport } from './pr/renderImportReport';
export type { RenderedImportReport } from './pr/renderImportReport';
export type { ImportReportFinding, ImportReportView } from './pr/importView';
export { publishGpuImport } from './publish/publishGpuImport';
export type {
  ImportPublishFacts,
  PublishGpuImportOptions,
  PublishGpuImportResult,
} from './publish/publishGpuImport';
// The everyday library's types that the onboarding signatures name, so that
// this entry's API report is whole on its own.
export type {
  ChangeSet,
  FileChange,
  FileDeletion,
  FileWrite,
} from './changes/types';
export type { VerifyChangeResult } from './changes/verifyChange';
export type { ForgeOptions } from './forges/forgeClient';
export type { RetryOptions } from './forges/http';
export type {
  Forge,
  ForgeKind,
  PullRequestInput,
  PullRequestRef,
  PullRequestResult,
} from './forges/types';
export type { GitAuthor } from './git/GitOpsRepository';
export type { KustomizeBuildOptions } from './kustomize/build';
export type {
  FileParser,
  ParseCache,
  ParseCacheOptions,
} from './repo/parseCache';
export type { ParsedDocument, SkippedFile } from './repo/yamlObjects';
export type { BuildRootOptions } from './kustomize/buildRoot';
export type {
  LayoutEntry,
  LayoutInput,
  RepoLayout,
  ResolvedRepoLayout,
} from './layout/layout';
export type { GitOpsTargetOptions } from './publish/gitopsTarget';
export type {
  ChangeDescription,
  PublishedChange,
} from './publish/publishChange';
export type { StageTiming } from './publish/stages';
export type { PublishLogger, Redactor } from './redact';
export type { RepoTree } from './repo/tree';
