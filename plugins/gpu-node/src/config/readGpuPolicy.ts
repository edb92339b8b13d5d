import type { Config } from '@backstage/config';
import {
  SHARING_MODES,
  type KueueCohortLimits,
  type SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import {
  EMPTY_POLICY,
  normalizeOwnerRef,
  type GpuPolicy,
  type OwnerPolicyRule,
} from '../policy/gpuPolicy';
import { withoutUndefined } from '../policy/withoutUndefined';

/** A GPU count a key may hold, undefined when absent; anything else stops the start-up, naming the key. */
function readGpus(config: Config, key: string, at: string) {
  const gpus = config.getOptionalNumber(key);
  if (gpus !== undefined && !(gpus >= 0)) {
    throw new Error(`${at}.${key} must be a number >= 0, got ${gpus}`);
  }
  return gpus;
}

function readCohortLimits(
  config: Config | undefined,
  at: string,
): KueueCohortLimits | undefined {
  if (!config) return undefined;
  return withoutUndefined({
    borrowingLimit: readGpus(config, 'borrowingLimit', at),
    lendingLimit: readGpus(config, 'lendingLimit', at),
  });
}

function readRule(config: Config | undefined, at: string): OwnerPolicyRule {
  if (!config) return {};
  const modes = config.getOptionalStringArray('allowedSharingModes');
  const unknown = modes?.filter(m => !SHARING_MODES.includes(m as SharingMode));
  if (unknown && unknown.length > 0) {
    // A typo here would silently forbid a mode for a whole team: fail at start-up.
    throw new Error(
      `${at}.allowedSharingModes: unknown sharing mode(s) ${unknown.join(', ')}; expected one of ${SHARING_MODES.join(', ')}`,
    );
  }
  const quota = readGpus(config, 'gpuQuota', at);
  return {
    allowedModels: config.getOptionalStringArray('allowedModels'),
    allowedSharingModes: modes as SharingMode[] | undefined,
    gpuQuota: quota,
    kueue: readCohortLimits(config.getOptionalConfig('kueue'), `${at}.kueue`),
  };
}

/**
 *  Reads `gpu.policy` (pass the `gpu.policy` sub-config, or undefined).
 *
 * @public
 */
export function readGpuPolicy(config: Config | undefined): GpuPolicy {
  if (!config) return EMPTY_POLICY;
  return {
    defaults: readRule(
      config.getOptionalConfig('defaults'),
      'gpu.policy.defaults',
    ),
    groups: (config.getOptionalConfigArray('groups') ?? []).map((group, i) => ({
      owner: normalizeOwnerRef(group.getString('owner')),
      ...withoutUndefined(readRule(group, `gpu.policy.groups[${i}]`)),
    })),
  };
}
