export type * from './types';
export { plan } from './plan';
export {
  devicePluginConfigFor,
  devicePluginConfigName,
  MPS_ROOT,
} from './device-plugin-config';
export { canonicalJson, contentHash, fnv1a32 } from './content-hash';
export { DRA_DEVICE_CLASS } from './sharing-dra';
export { OVERSUBSCRIBED_PREFIX } from './sharing-time-slicing';
