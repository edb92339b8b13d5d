import { isRecord, joinPath, type ValidationFinding } from './finding';

/**
 * Rules of the NVIDIA device-plugin config file `version: v1` (k8s-device-plugin
 * v0.20.0: `api/config/v1/` and `validateFlags` in
 * `cmd/nvidia-device-plugin/main.go`). Most failures crash the plugin at start
 * or reload; unknown keys are dropped SILENTLY by the plugin (no strict mode),
 * so they are reported here, as are fields the plugin parses but ignores.
 */

const KNOWN_KEYS: Record<string, readonly string[]> = {
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
const SHARING_KEYS = [
  'renameByDefault',
  'failRequestsGreaterThanOne',
  'resources',
];
const RESOURCE_KEYS = ['name', 'rename', 'devices', 'replicas'];

const MIG_STRATEGIES = ['none', 'single', 'mixed'];
const DEVICE_LIST_STRATEGIES = [
  'envvar',
  'volume-mounts',
  'cdi-annotations',
  'cdi-cri',
];
const DNS1123_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Max MPS clients per GPU: 48 at compute capability >= 7.5, else 16. */
export const MPS_MAX_REPLICAS = 48;

export interface DevicePluginConfigCheckOptions {
  /** The GPU model's MPS client limit (`GpuModel.mpsMaxReplicas`); default 48. */
  mpsMaxReplicas?: number;
  /**
   * The cluster's ClusterPolicy `mig.strategy`: under the GPU Operator it is
   * set as env `MIG_STRATEGY` (gpu-operator v26.7.0
   * `controllers/object_controls.go`) and overrides `flags.migStrategy` (a set
   * env counts as a set flag: `updateFromCLIFlag`, k8s-device-plugin v0.20.0
   * `api/config/v1/flags.go`).
   */
  effectiveMigStrategy?: 'none' | 'single' | 'mixed';
  /** Report a config without `sharing` (default true: our named configs all share). */
  requireSharing?: boolean;
}

function unknownKeys(
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

/** `NewResourceName`: `nvidia.com/` prefix added if missing, <= 63 chars, DNS-1123 subdomain after `/`. */
export function checkSharedResourceName(
  name: string,
  path: string,
): ValidationFinding[] {
  const full = name.includes('/') ? name : `nvidia.com/${name}`;
  const findings: ValidationFinding[] = [];
  if (full.length > 63) {
    findings.push({
      path,
      rule: 'resource-name',
      message: `resource name "${full}" is longer than 63 characters`,
    });
  }
  const [, suffix = ''] = full.split('/', 2);
  if (!DNS1123_SUBDOMAIN.test(suffix) || full.split('/').length !== 2) {
    findings.push({
      path,
      rule: 'resource-name',
      message: `resource name "${full}" must be <prefix>/<DNS-1123 subdomain>`,
    });
  }
  return findings;
}

function checkSharing(
  value: unknown,
  path: string,
  strategy: 'timeSlicing' | 'mps',
  options: DevicePluginConfigCheckOptions,
): ValidationFinding[] {
  if (!isRecord(value)) {
    return [{ path, rule: 'type', message: `${path} must be a map` }];
  }
  const findings = unknownKeys(value, SHARING_KEYS, path);
  for (const key of ['renameByDefault', 'failRequestsGreaterThanOne']) {
    if (key in value && typeof value[key] !== 'boolean') {
      findings.push({
        path: `${path}.${key}`,
        rule: 'type',
        message: `${key} must be true or false`,
      });
    }
  }
  const resources = value.resources;
  if (!Array.isArray(resources) || resources.length === 0) {
    findings.push({
      path: `${path}.resources`,
      rule: 'resources-empty',
      message:
        'no resources specified: the plugin fails to start; omit the whole block instead',
    });
    return findings;
  }
  const maxReplicas = options.mpsMaxReplicas ?? MPS_MAX_REPLICAS;
  resources.forEach((resource, index) => {
    const at = joinPath(`${path}.resources`, index);
    if (!isRecord(resource)) {
      findings.push({
        path: at,
        rule: 'type',
        message: 'each resource must be a map with name and replicas',
      });
      return;
    }
    findings.push(...unknownKeys(resource, RESOURCE_KEYS, at));
    if (typeof resource.name !== 'string' || resource.name === '') {
      findings.push({
        path: `${at}.name`,
        rule: 'required',
        message: 'no resource name specified',
      });
    } else {
      findings.push(...checkSharedResourceName(resource.name, `${at}.name`));
    }
    const replicas = resource.replicas;
    if (replicas === undefined) {
      findings.push({
        path: `${at}.replicas`,
        rule: 'required',
        message: 'no replicas specified',
      });
    } else if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
      findings.push({
        path: `${at}.replicas`,
        rule: 'type',
        message: 'replicas must be an integer',
      });
    } else if (replicas < 2) {
      findings.push({
        path: `${at}.replicas`,
        rule: 'min-replicas',
        message: 'number of replicas must be >= 2',
      });
    } else if (strategy === 'mps' && replicas > maxReplicas) {
      findings.push({
        path: `${at}.replicas`,
        rule: 'mps-max-replicas',
        message: `MPS allows at most ${maxReplicas} clients per GPU on this model; ${replicas} exceeds it`,
      });
    }
    if ('rename' in resource) {
      findings.push({
        path: `${at}.rename`,
        rule: 'ignored-field',
        message:
          'rename is not supported: the plugin drops it (use renameByDefault for <name>.shared)',
      });
    }
    if ('devices' in resource) {
      const devices = resource.devices;
      const valid =
        devices === 'all' ||
        (typeof devices === 'number' &&
          Number.isInteger(devices) &&
          devices > 0) ||
        (Array.isArray(devices) &&
          devices.every(d => typeof d === 'string' || typeof d === 'number'));
      if (!valid) {
        findings.push({
          path: `${at}.devices`,
          rule: 'devices',
          message:
            'devices must be "all", a positive count or a list of GPU indices / UUIDs',
        });
      } else if (devices !== 'all') {
        findings.push({
          path: `${at}.devices`,
          rule: 'ignored-field',
          message: 'devices other than "all" are reset to "all" by the plugin',
        });
      }
    }
  });
  return findings;
}

function checkEnum(
  value: unknown,
  allowed: string[],
  path: string,
): ValidationFinding[] {
  if (
    value === undefined ||
    (typeof value === 'string' && allowed.includes(value))
  )
    return [];
  return [
    {
      path,
      rule: 'enum',
      message: `${path} must be one of ${allowed.join(', ')}`,
    },
  ];
}

/** Checks one device-plugin config (the parsed value of one ConfigMap key). */
export function checkDevicePluginConfig(
  config: unknown,
  options: DevicePluginConfigCheckOptions = {},
): ValidationFinding[] {
  if (!isRecord(config)) {
    return [
      {
        path: '',
        rule: 'type',
        message: 'a device-plugin config must be a map',
      },
    ];
  }
  const findings = unknownKeys(config, KNOWN_KEYS[''], '');
  if (config.version !== undefined && config.version !== 'v1') {
    findings.push({
      path: 'version',
      rule: 'version',
      message: `unknown version "${String(config.version)}": only v1 is accepted`,
    });
  }

  const flags = isRecord(config.flags) ? config.flags : undefined;
  if (config.flags !== undefined && !flags) {
    findings.push({
      path: 'flags',
      rule: 'type',
      message: 'flags must be a map',
    });
  }
  if (flags) {
    findings.push(...unknownKeys(flags, KNOWN_KEYS.flags, 'flags'));
    findings.push(
      ...checkEnum(flags.migStrategy, MIG_STRATEGIES, 'flags.migStrategy'),
    );
    findings.push(
      ...checkEnum(
        flags.deviceDiscoveryStrategy,
        ['auto', 'nvml', 'tegra'],
        'flags.deviceDiscoveryStrategy',
      ),
    );
    if (isRecord(flags.plugin)) {
      const plugin = flags.plugin;
      findings.push(
        ...unknownKeys(plugin, KNOWN_KEYS['flags.plugin'], 'flags.plugin'),
      );
      findings.push(
        ...checkEnum(
          plugin.deviceIDStrategy,
          ['uuid', 'index'],
          'flags.plugin.deviceIDStrategy',
        ),
      );
      findings.push(
        ...checkEnum(
          plugin.sharedDevicesAllocationPolicy,
          ['distributed', 'packed'],
          'flags.plugin.sharedDevicesAllocationPolicy',
        ),
      );
      const lists = plugin.deviceListStrategy;
      // A single string or a list of strings (`deviceListStrategyFlag` in
      // k8s-device-plugin v0.20.0 `api/config/v1/flags.go`).
      const entries: unknown[] = Array.isArray(lists) ? lists : [lists];
      entries
        .filter(entry => entry !== undefined)
        .forEach((entry, index) =>
          findings.push(
            ...checkEnum(
              entry,
              DEVICE_LIST_STRATEGIES,
              joinPath('flags.plugin.deviceListStrategy', index),
            ),
          ),
        );
    }
    if (isRecord(flags.gfd)) {
      findings.push(
        ...unknownKeys(flags.gfd, KNOWN_KEYS['flags.gfd'], 'flags.gfd'),
      );
    }
  }

  if (isRecord(config.resources)) {
    findings.push(
      ...unknownKeys(config.resources, KNOWN_KEYS.resources, 'resources'),
    );
    for (const key of ['gpus', 'mig']) {
      const list = config.resources[key];
      if (Array.isArray(list) && list.length > 0) {
        findings.push({
          path: `resources.${key}`,
          rule: 'ignored-field',
          message:
            "customizing 'resources' is not supported: the plugin clears it",
        });
      }
    }
  }

  if (isRecord(config.imex)) {
    findings.push(...unknownKeys(config.imex, KNOWN_KEYS.imex, 'imex'));
    const ids = config.imex.channelIDs;
    if (
      ids !== undefined &&
      !(
        Array.isArray(ids) &&
        (ids.length === 0 || (ids.length === 1 && ids[0] === 0))
      )
    ) {
      findings.push({
        path: 'imex.channelIDs',
        rule: 'imex-channels',
        message: 'imex.channelIDs must be [] or [0]',
      });
    }
  }

  const sharing = isRecord(config.sharing) ? config.sharing : undefined;
  const strategies = sharing
    ? (['timeSlicing', 'mps'] as const).filter(
        key => sharing[key] !== undefined,
      )
    : [];
  if (sharing)
    findings.push(...unknownKeys(sharing, KNOWN_KEYS.sharing, 'sharing'));
  if (strategies.length === 2) {
    findings.push({
      path: 'sharing',
      rule: 'one-sharing-strategy',
      message:
        'set only one of sharing.timeSlicing and sharing.mps: with both, MPS silently wins',
    });
  }
  if (strategies.length === 0 && (options.requireSharing ?? true)) {
    findings.push({
      path: 'sharing',
      rule: 'required',
      message: 'a sharing config needs sharing.timeSlicing or sharing.mps',
    });
  }
  for (const strategy of strategies) {
    findings.push(
      ...checkSharing(
        sharing![strategy],
        `sharing.${strategy}`,
        strategy,
        options,
      ),
    );
  }

  if (strategies.includes('mps')) {
    const migStrategy = options.effectiveMigStrategy ?? flags?.migStrategy;
    if (migStrategy === 'mixed') {
      findings.push({
        path: options.effectiveMigStrategy
          ? 'sharing.mps'
          : 'flags.migStrategy',
        rule: 'mps-mig-mixed',
        message:
          options.effectiveMigStrategy === 'mixed'
            ? "MPS is not supported with MIG strategy mixed, and the cluster's ClusterPolicy mig.strategy (mixed) overrides flags.migStrategy"
            : 'using migStrategy mixed is not supported with MPS',
      });
    }
  }
  return findings;
}
