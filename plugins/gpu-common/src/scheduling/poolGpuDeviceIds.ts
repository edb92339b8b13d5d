/**
 * The PCI device ids of a pool object's GPUs: its GPU model annotation
 * (`<labelDomain>/gpu-model`, on every pool the product writes or adopts)
 * read in the built-in catalog. None for a pool without the annotation or
 * of a model the catalog does not know.
 */
import { builtinCatalog } from '../catalog/builtin';
import { pciDeviceIdsOf } from '../catalog/data/pciDeviceIds';

export function poolGpuDeviceIds(pool: { metadata: object }): string[] {
  const annotations = (pool.metadata as { annotations?: unknown }).annotations;
  const entry = Object.entries(
    typeof annotations === 'object' && annotations !== null ? annotations : {},
  ).find(([key]) => key.endsWith('/gpu-model'));
  const model = builtinCatalog.models.find(m => m.id === entry?.[1]);
  return model ? pciDeviceIdsOf(model) : [];
}
