import {
  GpuCatalog,
  MANAGED_BY,
  overlayReachesPool,
  WELL_KNOWN_KEYS,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize';
import { isProductPool } from '../repo/productPools';
import {
  getIn,
  isPlainObject,
  parseCount,
  stringRecord,
} from '../repo/yamlObjects';
import { nodePoolRequirements } from '../repo/nodePoolRequirements';
import { overlaidPools } from './builtOverlays';
import type { BuiltPool } from './builtPools';
import type { BuiltRoot } from './builtRoots';
import { poolMachinesOf } from './builtPools';
import type { Finding } from './findings';
import { sourceFileOf } from './sourceLocator';
import type { SourceTree } from './sourceTree';

interface Requirement {
  key: string;
  operator: string;
  values: string[];
}

function requirementsOf(object: unknown, ...path: string[]): Requirement[] {
  const list = getIn(object, ...path);
  return (Array.isArray(list) ? list : [])
    .filter(r => typeof getIn(r, 'key') === 'string')
    .map(r => {
      const values = getIn(r, 'values');
      return {
        key: String(getIn(r, 'key')),
        operator: String(getIn(r, 'operator')),
        values: Array.isArray(values) ? values.map(String) : [],
      };
    });
}

/**
 * Whether an overlay matches some machine NodePool `pool` may launch, as
 * Karpenter matches it (gpu-common `overlayReachesPool`, the rule of
 * `applyNodeOverlays`: each machine's labels, the pool's name and its
 * template labels), so that it changes what Karpenter assumes there. The
 * pool's machines are worked out once for all the overlays asked about: a
 * scale cluster's 2,000 overlays each worked them out again.
 */
export function overlayReach(
  pool: BuiltObject,
  catalog: GpuCatalog,
): (overlay: unknown) => boolean {
  const target = {
    name: pool.metadata.name,
    templateLabels: stringRecord(
      getIn(pool, 'spec', 'template', 'metadata', 'labels'),
    ),
    machines: poolMachinesOf(pool, catalog),
  };
  return overlay =>
    overlayReachesPool(
      nodePoolRequirements(getIn(overlay, 'spec', 'requirements')),
      target,
    );
}

/**
 * Whether the overlay tells Karpenter exactly what the pool's nodes
 * advertise: on every machine of the pool it reaches, each GPU resource it
 * sets is the device plugin's count per GPU times the machine's GPUs, and it
 * sets no price. Such an overlay changes nothing the product sized the pool
 * for (the request's `keepHandWrittenOverlays` relies on it and writes none
 * of its own for those nodes); one the pool's advertised units are unknown
 * for cannot be said to agree.
 */
function overlayAgreesWithPool(
  overlay: BuiltObject,
  pool: Pick<BuiltPool, 'object' | 'advertised'>,
  catalog: GpuCatalog,
): boolean {
  const advertised = pool.advertised;
  if (!advertised) return false;
  if (
    ['price', 'priceAdjustment'].some(
      f => getIn(overlay, 'spec', f) !== undefined,
    )
  ) {
    return false;
  }
  const capacity = Object.entries(
    stringRecord(getIn(overlay, 'spec', 'capacity')),
  );
  const reached = poolMachinesOf(pool.object, catalog).filter(machine =>
    overlayReachesPool(
      nodePoolRequirements(getIn(overlay, 'spec', 'requirements')),
      {
        name: pool.object.metadata.name,
        templateLabels: stringRecord(
          getIn(pool.object, 'spec', 'template', 'metadata', 'labels'),
        ),
        machines: [machine],
      },
    ),
  );
  return (
    capacity.length > 0 &&
    reached.length > 0 &&
    reached.every(machine =>
      capacity.every(([resource, value]) => {
        const perGpu = advertised.find(a => a.resource === resource)?.perGpu;
        return (
          perGpu !== undefined &&
          parseCount(value) === perGpu * machine.gpusPerNode
        );
      }),
    )
  );
}

/**
 * An overlay that names only product pools by `karpenter.sh/nodepool In` is
 * written for them (a pool's companion, checked by `node-overlay-capacity`);
 * one the product wrote carries its managed-by label.
 */
export function isCompanion(
  overlay: BuiltObject,
  productPools: Set<string>,
): boolean {
  if (
    getIn(overlay, 'metadata', 'labels', WELL_KNOWN_KEYS.managedBy) ===
    MANAGED_BY
  ) {
    return true;
  }
  const byPool = requirementsOf(overlay, 'spec', 'requirements').filter(
    r => r.key === WELL_KNOWN_KEYS.karpenterNodePool,
  );
  return byPool.some(
    r =>
      r.operator === 'In' &&
      r.values.length > 0 &&
      r.values.every(v => productPools.has(v)),
  );
}

/**
 * Whether the team's overlay is what gives a product pool its capacity: it
 * agrees with what the pool's nodes advertise (`overlayAgreesWithPool`) and
 * no companion overlay of the product names the pool (beside one, it would
 * still conflict with or outrank it: `overlayPrecedenceRules.ts`).
 */
function givesPoolItsCapacity(
  overlay: BuiltObject,
  pool: BuiltObject,
  root: BuiltRoot,
  context: {
    names: Set<string>;
    builtPools: readonly BuiltPool[];
    catalog: GpuCatalog;
  },
): boolean {
  const built = context.builtPools.find(
    p => p.root === root && p.object === pool,
  );
  const companion = root.objects.some(
    o =>
      o.kind === 'NodeOverlay' &&
      isCompanion(o, context.names) &&
      requirementsOf(o, 'spec', 'requirements').some(
        r =>
          r.key === WELL_KNOWN_KEYS.karpenterNodePool &&
          r.values.includes(pool.metadata.name),
      ),
  );
  return (
    built !== undefined &&
    !companion &&
    overlayAgreesWithPool(overlay, built, context.catalog)
  );
}

/** What the overlay changes for the nodes it reaches, for the message. */
function changes(overlay: BuiltObject): string {
  const capacity = getIn(overlay, 'spec', 'capacity');
  const parts = isPlainObject(capacity)
    ? Object.entries(capacity).map(([k, v]) => `${k}: ${String(v)}`)
    : [];
  for (const field of ['price', 'priceAdjustment']) {
    const value = getIn(overlay, 'spec', field);
    if (value !== undefined) parts.push(`${field} ${String(value)}`);
  }
  return parts.join(', ') || 'nothing';
}

/**
 * A hand-written NodeOverlay whose requirements also select the product's
 * NodePools (no `karpenter.sh/nodepool` requirement, or one that lets them
 * in) changes the capacity or price Karpenter assumes for their nodes
 * (Karpenter docs, "NodeOverlays": an overlay applies to every instance type
 * its requirements match, in every NodePool): the pods the product sized
 * those pools for stay Pending, or more nodes launch than it planned. One
 * that tells Karpenter exactly what a pool's nodes advertise, where the
 * product wrote no overlay of its own, changes nothing there and is not
 * reported for it (`givesPoolItsCapacity`).
 */
export function checkForeignNodeOverlays(
  roots: BuiltRoot[],
  source: SourceTree,
  catalog: GpuCatalog,
  findings: Finding[],
  builtPools: readonly BuiltPool[] = [],
): void {
  const reported = new Set<string>();
  for (const root of roots) {
    const pools = root.objects.filter(
      o => o.kind === 'NodePool' && isProductPool(o),
    );
    const names = new Set(pools.map(p => p.metadata.name));
    const context = { names, builtPools, catalog };
    // One Karpenter rejects changes nothing (`overlayPrecedenceRules.ts` says why).
    const rejected = overlaidPools(
      root.objects.filter(o => o.kind === 'NodeOverlay'),
      builtPools.filter(p => p.root === root),
    ).conflicting;
    const reaches = pools.map(pool => ({
      pool,
      reaches: overlayReach(pool, catalog),
    }));
    for (const overlay of root.objects) {
      if (
        overlay.kind !== 'NodeOverlay' ||
        isCompanion(overlay, names) ||
        rejected.includes(overlay.metadata.name)
      ) {
        continue;
      }
      const requirements = requirementsOf(overlay, 'spec', 'requirements');
      const reached = reaches
        .filter(({ reaches: reachesPool }) => reachesPool(overlay))
        .map(({ pool }) => pool)
        .filter(pool => !givesPoolItsCapacity(overlay, pool, root, context))
        .map(p => p.metadata.name)
        .sort();
      const file = sourceFileOf(source, root, overlay);
      const key = `${file} ${overlay.metadata.name}`;
      if (reached.length === 0 || reported.has(key)) continue;
      reported.add(key);
      const scoped = requirements.some(
        r => r.key === WELL_KNOWN_KEYS.karpenterNodePool,
      );
      findings.push({
        file,
        object: `NodeOverlay/${overlay.metadata.name}`,
        rule: 'node-overlay-reaches-product-pool',
        message: `this hand-written overlay also matches the product's pool(s) ${reached.join(', ')} (${scoped ? 'its karpenter.sh/nodepool requirement lets them in' : 'it has no karpenter.sh/nodepool requirement'}), so Karpenter assumes ${changes(overlay)} for their nodes instead of what the product sized them for; scope it to its own pools (karpenter.sh/nodepool In [...]) or leave them out (NotIn [${reached.join(', ')}])`,
      });
    }
  }
}
