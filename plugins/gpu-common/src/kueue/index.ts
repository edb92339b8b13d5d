export { planKueue } from './planKueue';
export type { KueueCohortLimits, KueueInputs, KueuePlan } from './planKueue';
export type { KueueObject } from './kueueObjects';
export {
  KUEUE_API_VERSION,
  QUEUE_NAME_LABEL,
  teamQueueName,
} from './kueueNames';
export { stateAfterPlan } from './stateAfterPlan';
export { stateAfterRelease } from './stateAfterRelease';
export { flavorQuotaIssues } from './flavorQuotaRule';
export type { FlavorCapacity, FlavorQuota } from './flavorQuotaRule';
export {
  kueueDeviceClassMappings,
  kueueResourceName,
  missingDeviceClassMappings,
} from './kueueDeviceClasses';
export { DEFAULT_KUEUE_VERSION, kueueVersionOf } from './kueueVersion';
export type { KueueDeviceClassMapping } from './kueueDeviceClasses';
