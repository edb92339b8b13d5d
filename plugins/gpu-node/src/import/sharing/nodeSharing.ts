/**
 * How the device plugin on a pool's nodes shares their GPUs, wherever the
 * repository sets it: the NVIDIA device plugin's config (a named config, or
 * the GPU Operator's default config, `operatorDefaultSharing.ts`), or
 * Bottlerocket's own device plugin settings (`bottlerocketSharing.ts`).
 */
import { getIn } from '../../repo/yamlObjects';

export interface NodeSharing {
  mode: 'time-slicing' | 'mps';
  /** Slices (time-slicing replicas, MPS clients) per GPU; undefined when not set. */
  slicesPerGpu?: number;
  /** The shared GPUs are advertised as `nvidia.com/gpu.shared`, not `nvidia.com/gpu`. */
  renameByDefault: boolean;
  /** Where it is set, in the reviewer's words. */
  source: string;
}

const SHARED_RESOURCE = 'nvidia.com/gpu.shared';
const WHOLE_GPU = 'nvidia.com/gpu';

/** The resource pods ask for on nodes shared so. */
export const sharedResource = (sharing: NodeSharing) =>
  sharing.renameByDefault ? SHARED_RESOURCE : WHOLE_GPU;

const positive = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0
    ? value
    : undefined;

/**
 * A device-plugin config's sharing (`version: v1`, `sharing.timeSlicing` or
 * `sharing.mps`: NVIDIA/k8s-device-plugin README, "Shared Access to GPUs"):
 * undefined when it gives whole GPUs.
 */
export function deviceConfigSharing(
  config: unknown,
  source: string,
): NodeSharing | undefined {
  for (const [field, mode] of [
    ['mps', 'mps'],
    ['timeSlicing', 'time-slicing'],
  ] as const) {
    const sharing = getIn(config, 'sharing', field);
    if (sharing === undefined || sharing === null) continue;
    const replicas = positive(getIn(sharing, 'resources', 0, 'replicas'));
    if (replicas === 1) return undefined;
    return {
      mode,
      ...(replicas !== undefined ? { slicesPerGpu: replicas } : {}),
      renameByDefault: getIn(sharing, 'renameByDefault') === true,
      source,
    };
  }
  return undefined;
}
