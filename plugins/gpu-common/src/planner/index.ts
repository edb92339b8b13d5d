export type * from './types';
export { plan } from './plan';
export {
  devicePluginConfigFor,
  devicePluginConfigName,
  MPS_ROOT,
} from './devicePluginConfig';
export { canonicalJson, contentHash, fnv1a32 } from './contentHash';
export { DRA_DEVICE_CLASS } from './sharingDra';
export { OVERSUBSCRIBED_PREFIX } from './sharingTimeSlicing';
