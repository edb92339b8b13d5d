import { devicePluginConfigFor } from '../planner/devicePluginConfig';
import type { Plan } from '../planner/types';
import type { DevicePluginConfig } from './types';

/**
 * The named device-plugin config (`version: v1`) for a time-slicing or MPS
 * plan, or undefined for modes that need none. Its content is the planner's
 * `devicePluginConfigFor` (which says why each key is written).
 *
 * When the planner already rendered the content its `deviceConfigName` was
 * derived from (`sharing.devicePluginConfig`), that exact content is used, so
 * the content-derived name always matches the content. A config the
 * cluster reads from a ConfigMap written by hand
 * (`sharing.handWrittenConfigMap`) is there already: nothing to write.
 */
export function buildDevicePluginConfig(
  plan: Plan,
): { name: string; config: DevicePluginConfig } | undefined {
  const mode = plan.sharing.mode;
  if (mode !== 'time-slicing' && mode !== 'mps') return undefined;
  if (
    plan.sharing.handWrittenConfigMap ||
    plan.sharing.onOperatorDefault ||
    plan.sharing.sharedByProvider
  ) {
    return undefined;
  }
  const { slicesPerGpu, deviceConfigName } = plan.sharing;
  if (!deviceConfigName || slicesPerGpu === undefined) {
    throw new Error(
      `Plan for pool ${plan.pool.name} (${mode}) lacks sharing.deviceConfigName or sharing.slicesPerGpu`,
    );
  }
  if (plan.sharing.devicePluginConfig) {
    return { name: deviceConfigName, config: plan.sharing.devicePluginConfig };
  }
  return {
    name: deviceConfigName,
    config: devicePluginConfigFor(mode, slicesPerGpu),
  };
}
