import type { Plan } from '../planner/types';
import type { DevicePluginConfig } from './types';

/** The resource every shared replica is cut from (full, non-MIG GPUs). */
const SHARED_SOURCE_RESOURCE = 'nvidia.com/gpu';

/**
 * Default MPS root of the device-plugin chart and the GPU Operator. The plugin
 * refuses MPS without it; under both installers the env `MPS_ROOT` overrides
 * this value, so writing it only matters for a plain plugin deployment.
 */
const MPS_ROOT = '/run/nvidia/mps';

/**
 * The named device-plugin config (`version: v1`) for a time-slicing or MPS
 * plan, or undefined for modes that need none.
 *
 * - `renameByDefault: true` advertises `nvidia.com/gpu.shared`, a resource a
 *   full-GPU pod never asks for, so exclusive pods stay off shared nodes.
 * - `failRequestsGreaterThanOne: true`: asking for 2 replicas buys no extra
 *   GPU share (NVIDIA k8s-device-plugin v0.20.0 README, "Shared Access to
 *   GPUs"), so such pods fail fast instead.
 * - exactly one of `timeSlicing` / `mps`: with both, MPS silently wins.
 * - `flags.migStrategy: none`: these pools hold full GPUs, and MPS rejects
 *   `mixed` outright.
 * Only keys the plugin reads are written; it ignores unknown keys silently.
 *
 * When the planner already rendered the content its `deviceConfigName` was
 * derived from (`sharing.devicePluginConfig`), that exact content is used, so
 * the content-derived name always matches the content.
 */
export function buildDevicePluginConfig(
  plan: Plan,
): { name: string; config: DevicePluginConfig } | undefined {
  const mode = plan.sharing.mode;
  if (mode !== 'time-slicing' && mode !== 'mps') return undefined;
  const { slicesPerGpu, deviceConfigName } = plan.sharing;
  if (!deviceConfigName || slicesPerGpu === undefined) {
    throw new Error(
      `Plan for pool ${plan.pool.name} (${mode}) lacks sharing.deviceConfigName or sharing.slicesPerGpu`,
    );
  }
  if (plan.sharing.devicePluginConfig) {
    return { name: deviceConfigName, config: plan.sharing.devicePluginConfig };
  }
  const resources = {
    renameByDefault: true,
    failRequestsGreaterThanOne: true,
    resources: [{ name: SHARED_SOURCE_RESOURCE, replicas: slicesPerGpu }],
  };
  const config: DevicePluginConfig =
    mode === 'mps'
      ? {
          version: 'v1',
          flags: { migStrategy: 'none', mpsRoot: MPS_ROOT },
          sharing: { mps: resources },
        }
      : {
          version: 'v1',
          flags: { migStrategy: 'none' },
          sharing: { timeSlicing: resources },
        };
  return { name: deviceConfigName, config };
}
