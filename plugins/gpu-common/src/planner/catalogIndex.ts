import type {
  GpuCatalog,
  GpuModel,
  InstanceType,
  MachineProvider,
} from '../catalog/types';

/**
 * Lookups the planner needs on every call, built once per catalog object.
 * Catalogs are treated as immutable (mergeCatalog returns a new object), so a
 * WeakMap keyed by the catalog is a safe cache and frees itself.
 *
 * @public
 */
export interface CatalogIndex {
  models: GpuModel[];
  modelsById: Map<string, GpuModel>;
  /** `${provider}/${modelId}` → instance types in catalog order. */
  instanceTypes: Map<string, InstanceType[]>;
  instanceTypesByName: Map<string, InstanceType>;
  /** Memory of the largest GPU in the catalog, in MiB. */
  maxMemoryMiB: number;
}

const cache = new WeakMap<GpuCatalog, CatalogIndex>();

export function indexCatalog(catalog: GpuCatalog): CatalogIndex {
  const cached = cache.get(catalog);
  if (cached) return cached;
  const modelsById = new Map(catalog.models.map(m => [m.id, m]));
  const instanceTypes = new Map<string, InstanceType[]>();
  const instanceTypesByName = new Map<string, InstanceType>();
  for (const type of catalog.instanceTypes) {
    const key = `${type.provider}/${type.gpuModel}`;
    const list = instanceTypes.get(key) ?? [];
    list.push(type);
    instanceTypes.set(key, list);
    instanceTypesByName.set(type.name, type);
  }
  const index: CatalogIndex = {
    models: catalog.models,
    modelsById,
    instanceTypes,
    instanceTypesByName,
    maxMemoryMiB: catalog.models.reduce(
      (max, m) => Math.max(max, m.memoryMiB),
      0,
    ),
  };
  cache.set(catalog, index);
  return index;
}

export function instanceTypesOf(
  index: CatalogIndex,
  provider: MachineProvider,
  modelId: string,
): InstanceType[] {
  return index.instanceTypes.get(`${provider}/${modelId}`) ?? [];
}
