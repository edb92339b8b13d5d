import type { DevicePluginConfig } from '../manifests/types';
import { contentHash } from './contentHash';
import { WHOLE_GPU_RESOURCE } from './modeDecision';

/**
 * Helm / GPU Operator default MPS root (`mps.root` in NVIDIA k8s-device-plugin
 * v0.20.0 `deployments/helm/nvidia-device-plugin/values.yaml`,
 * `devicePlugin.mps.root` in gpu-operator v26.7.0
 * `deployments/gpu-operator/values.yaml`); the plugin needs it set.
 */
export const MPS_ROOT = '/run/nvidia/mps';

/**
 * The device-plugin config (v1) for a time-slicing or MPS pool, keys exactly
 * where the plugin reads them (NVIDIA k8s-device-plugin v0.20.0
 * `api/config/v1/`: `config.go`, `sharing.go`, `replicas.go`):
 * - `renameByDefault: true` → pods ask for `nvidia.com/gpu.shared`, which
 *   keeps whole-GPU pods off shared nodes and is a pure addition for
 *   Karpenter's NodeOverlay (https://karpenter.sh/v1.14/concepts/nodeoverlays/);
 * - `failRequestsGreaterThanOne: true` → asking for 2 replicas fails loudly
 *   instead of silently buying nothing (more replicas are not more GPU);
 * - `flags.migStrategy: none` → these GPUs are not partitioned, and the
 *   plugin rejects MPS together with `mixed`;
 * - MPS also sets `mpsRoot`, required when MPS is active;
 * - exactly one of `timeSlicing` / `mps` (with both, MPS silently wins), and
 *   only keys the plugin reads (it ignores unknown keys silently).
 */
export function devicePluginConfigFor(
  mode: 'time-slicing' | 'mps',
  replicas: number,
): DevicePluginConfig {
  const resources = {
    renameByDefault: true,
    failRequestsGreaterThanOne: true,
    resources: [{ name: WHOLE_GPU_RESOURCE, replicas }],
  };
  return mode === 'mps'
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
}

/**
 * Content-derived config key, e.g. `ts-4-1a2b3c4d`: the device plugin only
 * reloads when the node label VALUE changes (editing the content of a key in
 * use needs a DaemonSet restart), so new content must get a new name.
 */
export function devicePluginConfigName(
  mode: 'time-slicing' | 'mps',
  replicas: number,
  config: DevicePluginConfig,
): string {
  const prefix = mode === 'mps' ? 'mps' : 'ts';
  return `${prefix}-${replicas}-${contentHash(config)}`;
}

/** The device-plugin config of a time-slicing or MPS pool, and its content-derived name. */
export function namedDevicePluginConfig(
  mode: 'time-slicing' | 'mps',
  replicas: number,
): { devicePluginConfig: DevicePluginConfig; deviceConfigName: string } {
  const devicePluginConfig = devicePluginConfigFor(mode, replicas);
  return {
    devicePluginConfig,
    deviceConfigName: devicePluginConfigName(
      mode,
      replicas,
      devicePluginConfig,
    ),
  };
}
