export {
  prepareExistingWorkload,
  type PreparedExistingWorkload,
} from './prepareExistingWorkload';
export {
  resolveExistingWorkload,
  type ExistingWorkloadLocation,
  type ExistingWorkloadApply,
} from './resolveExistingWorkload';
export { chooseContainer, type OwnPatch } from './currentWorkload';
export { readKustomizations, type KustomizationIndex } from './kustomizations';
