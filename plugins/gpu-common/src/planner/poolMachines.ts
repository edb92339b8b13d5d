/**
 * The catalog machines a repository pool may launch: one rule for whether a
 * pool can take a request (reusePool.ts), how it is sized (poolSizing.ts)
 * and what it costs, before and after a request or a release (poolCost.ts,
 * poolOption.ts, release/planRelease.ts), so a pool has one price in a
 * request and in its release.
 *
 * A Karpenter pool launches what its requirements allow, whatever names it
 * lists: `instance-family In [g5]`, `instance-size NotIn [metal]`,
 * `instance-cpu Lt 33`, Azure `sku-gpu-count In [1]` all narrow the catalog
 * (providers/karpenterRequirements.ts). A pool read without its requirements
 * (another kind, an older reader) launches the instance types it names, and
 * one naming none launches any machine of its model on the cluster's
 * provider.
 */
import type { GpuCatalog, InstanceType } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import {
  isKarpenterMachine,
  machineLabelsOf,
} from '../providers/karpenterMachines';
import { excludesGpuMachines } from '../providers/gpuMachineLabels';
import { requirementsAllowMachine } from '../providers/karpenterRequirements';
import { poolProviderOf } from '../providers/poolProviders';
import { indexCatalog, type CatalogIndex } from './catalogIndex';
import type { PoolState } from './types';

function indexOf(catalog: GpuCatalog | CatalogIndex): CatalogIndex {
  return 'instanceTypesByName' in catalog ? catalog : indexCatalog(catalog);
}

/**
 * Of `candidates`, the machines whose labels meet Karpenter `requirements`
 * (a NodePool's, as written or built). Every catalog machine has GPUs, so
 * requirements that keep a pool off GPU machines allow none, even on a
 * label the catalog does not hold (Azure's `sku-family: D`).
 *
 * @public
 */
export function machinesRequirementsAllow(
  requirements: readonly NodeSelectorRequirement[],
  candidates: readonly InstanceType[],
): InstanceType[] {
  if (excludesGpuMachines(requirements)) return [];
  return candidates.filter(t =>
    requirementsAllowMachine(requirements, machineLabelsOf(t)),
  );
}

/** Of `candidates`, the machines `pool` may launch (see the file comment). */
export function machinesPoolAllows(
  pool: PoolState,
  candidates: readonly InstanceType[],
): InstanceType[] {
  if (pool.requirements) {
    return machinesRequirementsAllow(pool.requirements, candidates);
  }
  if (pool.instanceTypes.length === 0) return [...candidates];
  const named = new Set(pool.instanceTypes);
  return candidates.filter(t => named.has(t.name));
}

/**
 * The catalog machines `pool` may launch: of its GPU model and of
 * `cluster`'s provider (without it, Karpenter's), those its requirements
 * allow; a pool read without requirements, the catalog's machines of the
 * names it lists (without `cluster`, only those); a pool of unknown model,
 * only machines it names.
 */
export function machinesOfPool(
  pool: PoolState,
  catalog: GpuCatalog | CatalogIndex,
  cluster?: Pick<ClusterProfile, 'provider' | 'clusterApi'>,
): InstanceType[] {
  const index = indexOf(catalog);
  const named = pool.instanceTypes
    .map(t => index.instanceTypesByName.get(t))
    .filter((t): t is InstanceType => t !== undefined);
  const provider = cluster ? poolProviderOf(cluster).machines : undefined;
  // Without requirements, a pool naming no machine launches any of its
  // model only where the cluster says whose machines they are.
  if (!pool.requirements && (named.length > 0 || provider === undefined)) {
    return named;
  }
  // Without its model, only the machines it names are known to be its.
  if (pool.gpuModel === undefined) return machinesPoolAllows(pool, named);
  const candidates = [...index.instanceTypesByName.values()].filter(
    t =>
      t.gpuModel === pool.gpuModel &&
      (provider === undefined
        ? isKarpenterMachine(t)
        : t.provider === provider),
  );
  return machinesPoolAllows(pool, candidates);
}

/**
 * The GPU models of a pool of no one model (`gpuModel` unread): those of
 * the catalog machines its requirements let the cluster's Karpenter launch,
 * read in that provider's own labels (EKS Auto Mode's `eks.amazonaws.com/`
 * ones: `instance-gpu-name In [l4, a10g]` is two models). Readers name them
 * where they would otherwise name one: never one of them as the pool's.
 * Empty for a pool of one model, one read without requirements, and one of
 * a cluster no Karpenter serves.
 *
 * @public
 */
export function gpuModelsPoolAllows(
  pool: PoolState,
  catalog: GpuCatalog,
  cluster: Pick<ClusterProfile, 'provider' | 'clusterApi'>,
): string[] {
  const machines = poolProviderOf(cluster).karpenter;
  if (pool.gpuModel !== undefined || !pool.requirements || !machines) {
    return [];
  }
  const provider = poolProviderOf(cluster).machines;
  const models = catalog.instanceTypes
    .filter(
      t =>
        t.provider === provider &&
        requirementsAllowMachine(pool.requirements!, machines.machineLabels(t)),
    )
    .map(t => t.gpuModel);
  return [...new Set(models)].sort();
}
