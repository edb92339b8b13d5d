/**
 * The `nvidia.com/gpu.product` values a pool's running nodes carry, from
 * what the pool is (its GPU model and how its GPUs are shared), for every
 * builder of a node shape: the planned pool (`plannedPoolShape.ts`), the
 * pools `validate` and `verify` read from the built objects (gpu-node
 * `validate/poolNodeShapes.ts`) and the pools the import reads (gpu-node
 * `import/workloadLanding.ts`). One reading of GPU Feature Discovery's
 * label: `gpuProductLabelValues`.
 */
import type { MigStrategy } from '../cluster/types';
import type { SharingMode } from '../request/types';
import { gpuProductLabelValues } from './gpuProductLabel';

/** The resource name the device plugin keeps unless the config renames it. */
const WHOLE_GPU = 'nvidia.com/gpu';

/**
 * What decides a pool's product label: its model, its sharing (the MIG
 * profile; the slices per GPU and the resource name they are advertised
 * under).
 *
 * @public
 */
export interface PoolGpuFacts {
  gpuModel?: string;
  sharingMode: SharingMode;
  slicesPerGpu?: number;
  migProfile?: string;
  resourceName: string;
}

/**
 * The values of the label on the pool's nodes; undefined when the model (or
 * its NVML names) is not known, so any value stays possible. A MIG pool's
 * label ends in its profile only under the `single` strategy; when the
 * strategy is not known, either form.
 *
 * @public
 */
export function poolGpuProducts(
  pool: PoolGpuFacts,
  migStrategy: MigStrategy | undefined,
): string[] | undefined {
  if (!pool.gpuModel) return undefined;
  const shared =
    (pool.sharingMode === 'time-slicing' || pool.sharingMode === 'mps') &&
    (pool.slicesPerGpu ?? 1) > 1 &&
    pool.resourceName === WHOLE_GPU;
  const plain = gpuProductLabelValues(pool.gpuModel, {
    sharedUnrenamed: shared,
  });
  if (pool.sharingMode !== 'mig' || !pool.migProfile) return plain;
  const single = gpuProductLabelValues(pool.gpuModel, {
    singleStrategyMigProfile: pool.migProfile,
  });
  if (migStrategy === 'single') return single;
  if (migStrategy === 'mixed' || !plain || !single) return plain;
  return [...plain, ...single];
}
