import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { DevicePluginConfig } from '../manifests/types';
import type { SharingPlan } from './types';

/**
 * A device-plugin config the pool's nodes run whatever the plan labels
 * them: the GPU Operator's default on unlabelled nodes
 * (`keepOperatorDefaultConfig`), or Bottlerocket's user-data config on every
 * node of its node class (`nodeClassConfig.ts`).
 */
export interface FixedDevicePluginConfig {
  /** The name the plan gives it: the operator's default key, or the node class. */
  key: string;
  content: unknown;
  /** `operator-default`: the product could label the nodes instead; `node-class`: nothing selects another. */
  by: 'operator-default' | 'node-class';
}

/**
 * Plans the sharing on `fixed`: its name and content stand for the config,
 * the product writes none (`buildDevicePluginConfig`) and sets no config
 * label, so a NodePool template is not changed for nothing (Karpenter would
 * replace every node) and a release gives the pool back as it was.
 */
export function planOnFixedConfig(
  sharing: SharingPlan,
  modeLabels: Record<string, string>,
  fixed: FixedDevicePluginConfig,
): void {
  sharing.deviceConfigName = fixed.key;
  sharing.devicePluginConfig = fixed.content as DevicePluginConfig;
  if (fixed.by === 'operator-default') sharing.onOperatorDefault = true;
  else sharing.sharedByProvider = true;
  delete modeLabels[WELL_KNOWN_KEYS.devicePluginConfig];
}
