/**
 * The value GPU Feature Discovery gives the node label
 * `nvidia.com/gpu.product` (NVIDIA/k8s-device-plugin v0.17–v0.20
 * `internal/lm/resource.go`, `getProductName` / `sanitise`): the GPU's NVML
 * product name with runs of blanks turned into one `-` (characters other
 * than letters, digits, `-`, `_`, `.` dropped), then under the MIG `single`
 * strategy `-MIG-<profile>` (the MIG device's name), then `-SHARED` when
 * the resource is shared (time-slicing or MPS replicas > 1) and keeps its
 * name (`renameByDefault` false). Under the `mixed` strategy the GPU's label
 * keeps the plain name (MIG devices get their own `nvidia.com/mig-*.product`).
 */
import { NVML_PRODUCT_NAMES } from '../catalog/data/nvmlProductNames';

/** What changes the label on one pool's nodes besides the model. */
export interface GpuProductLabelContext {
  /** The MIG profile its GPUs are partitioned in, under the `single` strategy. */
  singleStrategyMigProfile?: string;
  /** Its resource is shared (replicas > 1) under the name `nvidia.com/gpu`. */
  sharedUnrenamed?: boolean;
}

function sanitised(part: string): string {
  return part
    .replace(/[^A-Za-z0-9\-_. ]/g, '')
    .split(/\s+/)
    .filter(word => word !== '')
    .join('-');
}

/**
 * The values `nvidia.com/gpu.product` takes on the nodes of a pool of the
 * catalog model `modelId`, one per board variant; undefined when the
 * catalog does not know the model's NVML names.
 */
export function gpuProductLabelValues(
  modelId: string,
  context: GpuProductLabelContext = {},
): string[] | undefined {
  const names = NVML_PRODUCT_NAMES[modelId];
  if (!names) return undefined;
  const mig = context.singleStrategyMigProfile
    ? ['MIG', context.singleStrategyMigProfile]
    : [];
  const shared = context.sharedUnrenamed ? ['SHARED'] : [];
  return names.map(name =>
    [name, ...mig].map(sanitised).concat(shared).join('-'),
  );
}
