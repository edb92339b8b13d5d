/**
 * What a device-plugin config (v1) does to a node's GPUs, for matching a
 * team's key against the config a plan needs: the sharing (time-slicing or
 * MPS), the replicas per GPU, and the resource name pods ask for. Two
 * configs with the same sharing and replicas share a GPU alike; only
 * `renameByDefault` changes what pods ask for: `nvidia.com/gpu.shared` when
 * true, `nvidia.com/gpu` when false or absent (NVIDIA k8s-device-plugin
 * v0.20.0 README, "Shared Access to GPUs"; `api/config/v1/replicas.go`).
 * `failRequestsGreaterThanOne` only matters to pods asking for more than one
 * replica, which the product's pods never do (`resourcePerReplica` 1), and
 * the GPU Operator passes its own `mig.strategy` over `flags.migStrategy`.
 */
import { SHARED_GPU_RESOURCE, WHOLE_GPU_RESOURCE } from './modeDecision';

/** The field of a config that decides the resource name, as a reviewer finds it. */
export const RENAME_FIELD = 'renameByDefault';

/**
 * What a device-plugin config does to every GPU of a node.
 *
 * @public
 */
export interface DevicePluginSlicing {
  /** `sharing.timeSlicing` or `sharing.mps`. */
  mode: 'time-slicing' | 'mps';
  /** Replicas of each GPU. */
  replicas: number;
  /** What pods ask for: `nvidia.com/gpu.shared` with `renameByDefault: true`, else `nvidia.com/gpu`. */
  resourceName: string;
}

const MODES = [
  ['timeSlicing', 'time-slicing'],
  ['mps', 'mps'],
] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The slicing `config` gives every GPU of a node: one sharing, one resource
 * (`nvidia.com/gpu`) with a replica count. Undefined for whole GPUs or a
 * shape the product does not plan on (several resources, both sharings).
 *
 * @public
 */
export function devicePluginSlicing(
  config: unknown,
): DevicePluginSlicing | undefined {
  const sharing = isRecord(config) ? config.sharing : undefined;
  if (!isRecord(sharing)) return undefined;
  const present = MODES.filter(([key]) => sharing[key] !== undefined);
  if (present.length !== 1) return undefined;
  const [key, mode] = present[0];
  const resources = isRecord(sharing[key]) ? sharing[key] : undefined;
  const list = resources?.resources;
  if (!Array.isArray(list) || list.length !== 1 || !isRecord(list[0])) {
    return undefined;
  }
  const { name, replicas } = list[0];
  if (name !== WHOLE_GPU_RESOURCE || typeof replicas !== 'number') {
    return undefined;
  }
  return {
    mode,
    replicas,
    resourceName:
      resources?.[RENAME_FIELD] === true
        ? SHARED_GPU_RESOURCE
        : WHOLE_GPU_RESOURCE,
  };
}

/**
 * True when `a` and `b` share a GPU alike (same sharing and replicas),
 * whatever resource name each gives; with `sameResourceName`, they must also
 * give pods the same resource name.
 */
export function sameSlicing(
  a: unknown,
  b: unknown,
  { sameResourceName = false }: { sameResourceName?: boolean } = {},
): boolean {
  const sa = devicePluginSlicing(a);
  const sb = devicePluginSlicing(b);
  return (
    sa !== undefined &&
    sb !== undefined &&
    sa.mode === sb.mode &&
    sa.replicas === sb.replicas &&
    (!sameResourceName || sa.resourceName === sb.resourceName)
  );
}
