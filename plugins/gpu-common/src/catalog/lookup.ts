import type { GpuCatalog, GpuModel, InstanceType } from './types';

/**
 *  The model with this catalog id, or undefined.
 *
 * @public
 */
export function findModel(
  catalog: GpuCatalog,
  id: string,
): GpuModel | undefined {
  return catalog.models.find(m => m.id === id);
}

/**
 *  The instance type / flavor with this name, or undefined.
 *
 * @public
 */
export function findInstanceType(
  catalog: GpuCatalog,
  name: string,
): InstanceType | undefined {
  return catalog.instanceTypes.find(t => t.name === name);
}

/** Every instance type carrying this model, in catalog order. */
export function instanceTypesForModel(
  catalog: GpuCatalog,
  modelId: string,
): InstanceType[] {
  return catalog.instanceTypes.filter(t => t.gpuModel === modelId);
}
