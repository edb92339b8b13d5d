/**
 * The NodeOverlays a root builds, applied to its NodePools as Karpenter
 * applies them (gpu-common `applyNodeOverlays`): what Karpenter believes of
 * each machine of each pool, for the node shapes (`poolNodeShapes.ts`) and
 * the overlay rules (`overlayPrecedenceRules.ts`).
 */
import {
  applyNodeOverlays,
  type AdvertisedNodeResource,
  type NodeOverlayLike,
  type NodeOverlayOutcome,
  type OverlaidMachine,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize';
import { nodePoolRequirements } from '../repo/nodePoolRequirements';
import { getIn, parseCount, stringRecord } from '../repo/yamlObjects';
import type { BuiltPool } from './builtPools';

/** The resource Karpenter knows from the cloud: a machine's GPUs. */
const WHOLE_GPU = 'nvidia.com/gpu';

/** One built NodeOverlay as Karpenter reads it. */
export function nodeOverlayOf(object: BuiltObject): NodeOverlayLike {
  const spec = getIn(object, 'spec');
  const weight = parseCount(getIn(spec, 'weight'));
  const price = getIn(spec, 'price');
  const priceAdjustment = getIn(spec, 'priceAdjustment');
  return {
    name: object.metadata.name,
    ...(weight !== undefined ? { weight } : {}),
    requirements: nodePoolRequirements(getIn(spec, 'requirements')),
    capacity: stringRecord(getIn(spec, 'capacity')),
    ...(price !== undefined ? { price: String(price) } : {}),
    ...(priceAdjustment !== undefined
      ? { priceAdjustment: String(priceAdjustment) }
      : {}),
  };
}

/**
 * `overlays` applied to the NodePools among `pools` (Cluster API and static
 * pools are not Karpenter's: no overlay reaches them).
 */
export function overlaidPools(
  overlays: readonly BuiltObject[],
  pools: readonly BuiltPool[],
): NodeOverlayOutcome {
  return applyNodeOverlays(
    overlays.map(nodeOverlayOf),
    pools
      .filter(p => p.object.kind === 'NodePool')
      .map(p => ({
        name: p.name,
        templateLabels: stringRecord(
          getIn(p.object, 'spec', 'template', 'metadata', 'labels'),
        ),
        machines: p.machines,
      })),
  );
}

/**
 * Each NodePool of one root with what Karpenter believes of its machines
 * under the root's overlays; none built, nothing set.
 */
export function withOverlays(
  pools: readonly BuiltPool[],
  objects: readonly BuiltObject[],
): BuiltPool[] {
  const overlays = objects.filter(o => o.kind === 'NodeOverlay');
  if (overlays.length === 0) return [...pools];
  const { machines } = overlaidPools(overlays, pools);
  // Grouped once: a scale cluster's 2k pools each filtering every pool's
  // machines was seconds of one block in the updater's pass.
  const byPool = Map.groupBy(machines, m => m.pool);
  return pools.map(pool =>
    pool.object.kind === 'NodePool'
      ? { ...pool, overlaid: byPool.get(pool.name) ?? [] }
      : pool,
  );
}

/** What Karpenter believes a machine holds of `resource`: the applied overlay's, else the cloud's (`nvidia.com/gpu`: its GPUs), else none. */
function believed(machine: OverlaidMachine, resource: string): number {
  const value = machine.capacity[resource];
  if (value) return parseCount(value.value) ?? 0;
  return resource === WHOLE_GPU ? machine.machine.gpusPerNode : 0;
}

/**
 * What a node of a NodePool holds for a pod: of a resource the overlays
 * name, no more than Karpenter believes (it launches no node for a pod that
 * does not fit what it believes) nor than the device plugin advertises
 * (`resources`, for the pool's largest machine); the most any of its
 * machines holds. A resource no overlay names keeps the plugin's count.
 */
export function overlaidResources(
  resources: readonly AdvertisedNodeResource[],
  pool: BuiltPool,
): AdvertisedNodeResource[] {
  const machines = pool.overlaid ?? [];
  const most = Math.max(0, ...pool.gpuCounts);
  return resources.map(resource => {
    const { perNode } = resource;
    if (
      perNode === undefined ||
      most === 0 ||
      !machines.some(m => m.named.includes(resource.name))
    ) {
      return resource;
    }
    const held = machines.map(m => {
      const advertised = (perNode * m.machine.gpusPerNode) / most;
      return m.named.includes(resource.name)
        ? Math.min(advertised, believed(m, resource.name))
        : advertised;
    });
    return { ...resource, perNode: Math.max(...held) };
  });
}
