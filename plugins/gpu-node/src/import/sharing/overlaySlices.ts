/**
 * What the repository's hand-written NodeOverlays tell Karpenter a pool's
 * nodes offer: a NodeOverlay's `capacity` replaces the count Karpenter
 * derives from the cloud (`ApplyCapacityOverlay`, kubernetes-sigs/karpenter
 * v1.14.1 `pkg/cloudprovider/types.go`), so `nvidia.com/gpu: 16` on 4-GPU
 * nodes is 4 slices per GPU, and the pool's `spec.limits` count that
 * capacity too: a limit of `nvidia.com/gpu: 40` is 40 slices there, not 40
 * GPUs. Read per overlay that may reach the pool's nodes, as Karpenter
 * matches it (`overlayReach`: one that names the pool, or one that names
 * no pool and selects its machines by labels, as the Karpenter Blueprints'
 * `node-overlay-gpu-slices.yaml` does), against the GPUs of the nodes it
 * selects (a GPU-count label, else its or the pool's instance types in the
 * catalog).
 */
import {
  KARPENTER_GPU_COUNT_LABELS,
  WELL_KNOWN_KEYS,
  type GpuCatalog,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../../kustomize';
import { isGpuResourceName } from '../../repo/poolLabels';
import { overlayReach } from '../../validate/foreignNodeOverlayRules';
import {
  getIn,
  isPlainObject,
  parseCount,
  stringRecord,
  type PlainObject,
} from '../../repo/yamlObjects';
import { objectLabel } from '../convert/findings';

/** One overlay's GPU count, in the units it counts. */
export interface OverlayCount {
  overlay: string;
  resource: string;
  perNode: number;
  /** Physical GPUs of the nodes it selects; undefined when they cannot be told. */
  gpusPerNode?: number;
}

function inValues(requirements: unknown, keys: readonly string[]): string[] {
  if (!Array.isArray(requirements)) return [];
  return requirements
    .filter(
      r =>
        isPlainObject(r) &&
        r.operator === 'In' &&
        keys.includes(String(r.key)) &&
        Array.isArray(r.values),
    )
    .flatMap(r => (r.values as unknown[]).map(String));
}

const single = (values: number[]) =>
  new Set(values).size === 1 ? values[0] : undefined;

function gpusPerNode(
  requirements: unknown,
  pool: Pick<PoolState, 'instanceTypes'>,
  catalog: GpuCatalog,
): number | undefined {
  const counts = inValues(requirements, KARPENTER_GPU_COUNT_LABELS)
    .map(v => parseCount(v))
    .filter((n): n is number => n !== undefined);
  if (counts.length > 0) return single(counts);
  const types = inValues(requirements, [WELL_KNOWN_KEYS.instanceType]);
  const machines = (types.length > 0 ? types : pool.instanceTypes).flatMap(
    name => catalog.instanceTypes.filter(t => t.name === name),
  );
  return machines.length > 0
    ? single(machines.map(t => t.gpusPerNode))
    : undefined;
}

/**
 * The GPU counts of the NodeOverlays among `objects` that may reach the
 * nodes of `nodePool` (none for a pool that is no Karpenter NodePool:
 * Karpenter alone reads NodeOverlays).
 */
export function overlayCounts(
  pool: Pick<PoolState, 'instanceTypes'>,
  nodePool: PlainObject,
  objects: readonly PlainObject[],
  catalog: GpuCatalog,
): OverlayCount[] {
  if (nodePool.kind !== 'NodePool') return [];
  return objects
    .filter(o => o.kind === 'NodeOverlay')
    .filter(overlayReach(nodePool as BuiltObject, catalog))
    .flatMap(o => countsOfOverlay(o, pool, catalog));
}

/** The GPU counts one NodeOverlay sets for the nodes of `pool` it reaches. */
export function countsOfOverlay(
  overlay: PlainObject,
  pool: Pick<PoolState, 'instanceTypes'>,
  catalog: GpuCatalog,
): OverlayCount[] {
  const gpus = gpusPerNode(
    getIn(overlay, 'spec', 'requirements'),
    pool,
    catalog,
  );
  return Object.entries(stringRecord(getIn(overlay, 'spec', 'capacity')))
    .filter(([resource]) => isGpuResourceName(resource))
    .flatMap(([resource, count]) => {
      const perNode = parseCount(count);
      return perNode === undefined
        ? []
        : [
            {
              overlay: objectLabel(overlay),
              resource,
              perNode,
              ...(gpus !== undefined ? { gpusPerNode: gpus } : {}),
            },
          ];
    });
}

/** Units per GPU of `resource` the overlays agree on; undefined when none say or they differ. */
export function overlayUnitsPerGpu(
  counts: readonly OverlayCount[],
  resource: string,
): number | undefined {
  const units = counts
    .filter(c => c.resource === resource && c.gpusPerNode)
    .map(c => c.perNode / c.gpusPerNode!);
  return units.length > 0 && new Set(units).size === 1 ? units[0] : undefined;
}
