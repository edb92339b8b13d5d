import { isRecord, type ValidationFinding } from './finding';
import { KNOWN_KEYS, unknownKeys } from './devicePluginConfigKeys';
import { checkFlags } from './devicePluginFlags';
import { checkSharing, MPS_MAX_REPLICAS } from './devicePluginSharing';

export {
  checkSharedResourceName,
  MPS_MAX_REPLICAS,
} from './devicePluginSharing';

/**
 * Rules of the NVIDIA device-plugin config file `version: v1` (k8s-device-plugin
 * v0.20.0: `api/config/v1/` and `validateFlags` in
 * `cmd/nvidia-device-plugin/main.go`). Most failures crash the plugin at start
 * or reload; unknown keys are dropped SILENTLY by the plugin (no strict mode),
 * so they are reported here, as are fields the plugin parses but ignores.
 *
 * @public
 */

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

/**
 *  Checks one device-plugin config (the parsed value of one ConfigMap key).
 *
 * @public
 */
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
  if (flags) findings.push(...checkFlags(flags));
  findings.push(
    ...resourcesFindings(config.resources),
    ...imexFindings(config.imex),
    ...sharingFindings(config.sharing, flags, options),
  );
  return findings;
}

/** `resources` is parsed but cleared by the plugin: a customized list is ignored. */
function resourcesFindings(resources: unknown): ValidationFinding[] {
  if (!isRecord(resources)) return [];
  const findings = unknownKeys(resources, KNOWN_KEYS.resources, 'resources');
  for (const key of ['gpus', 'mig']) {
    const list = resources[key];
    if (Array.isArray(list) && list.length > 0) {
      findings.push({
        path: `resources.${key}`,
        rule: 'ignored-field',
        message:
          "customizing 'resources' is not supported: the plugin clears it",
      });
    }
  }
  return findings;
}

function imexFindings(imex: unknown): ValidationFinding[] {
  if (!isRecord(imex)) return [];
  const findings = unknownKeys(imex, KNOWN_KEYS.imex, 'imex');
  const ids = imex.channelIDs;
  const valid =
    ids === undefined ||
    (Array.isArray(ids) &&
      (ids.length === 0 || (ids.length === 1 && ids[0] === 0)));
  if (!valid) {
    findings.push({
      path: 'imex.channelIDs',
      rule: 'imex-channels',
      message: 'imex.channelIDs must be [] or [0]',
    });
  }
  return findings;
}

/** One sharing strategy (time-slicing or MPS), its own rules, and MPS never under the mixed MIG strategy. */
function sharingFindings(
  sharingValue: unknown,
  flags: Record<string, unknown> | undefined,
  options: DevicePluginConfigCheckOptions,
): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  const sharing = isRecord(sharingValue) ? sharingValue : undefined;
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
  const mpsMaxReplicas = options.mpsMaxReplicas ?? MPS_MAX_REPLICAS;
  for (const strategy of strategies) {
    findings.push(
      ...checkSharing(
        sharing![strategy],
        `sharing.${strategy}`,
        strategy,
        mpsMaxReplicas,
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
