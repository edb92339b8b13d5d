import type { ValidationFinding } from './finding';

/**
 * The keys of each map of a device-plugin config (k8s-device-plugin v0.20.0
 * `api/config/v1/`). The plugin drops unknown keys SILENTLY (no strict mode),
 * so a typo there is reported here.
 */
export const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': ['version', 'flags', 'resources', 'sharing', 'imex'],
  flags: [
    'migStrategy',
    'failOnInitError',
    'mpsRoot',
    'nvidiaDriverRoot',
    'nvidiaDevRoot',
    'gdrcopyEnabled',
    'gdsEnabled',
    'mofedEnabled',
    'useNodeFeatureAPI',
    'deviceDiscoveryStrategy',
    'plugin',
    'gfd',
  ],
  'flags.plugin': [
    'passDeviceSpecs',
    'deviceListStrategy',
    'deviceIDStrategy',
    'cdiAnnotationPrefix',
    'nvidiaCTKPath',
    'containerDriverRoot',
    'sharedDevicesAllocationPolicy',
  ],
  'flags.gfd': [
    'oneshot',
    'noTimestamp',
    'sleepInterval',
    'outputFile',
    'machineTypeFile',
  ],
  sharing: ['timeSlicing', 'mps'],
  imex: ['channelIDs', 'required'],
  resources: ['gpus', 'mig'],
};
export const SHARING_KEYS = [
  'renameByDefault',
  'failRequestsGreaterThanOne',
  'resources',
];
export const RESOURCE_KEYS = ['name', 'rename', 'devices', 'replicas'];

/** One `unknown-key` finding per key of `value` the plugin does not know at `path`. */
export function unknownKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  path: string,
): ValidationFinding[] {
  return Object.keys(value)
    .filter(key => !known.includes(key))
    .map(key => ({
      path: path ? `${path}.${key}` : key,
      rule: 'unknown-key',
      message: `"${key}" is not a device-plugin config key${path ? ` under ${path}` : ''}; the plugin silently ignores it`,
    }));
}
