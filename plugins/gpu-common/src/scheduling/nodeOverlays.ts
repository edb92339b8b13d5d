/**
 * What Karpenter believes of each machine a NodePool may launch once every
 * NodeOverlay of the cluster is applied: the capacity of each resource an
 * overlay sets and the price, and which overlay gave each, as Karpenter
 * v1.14.1 decides it (kubernetes-sigs/karpenter v1.14.1
 * `pkg/apis/v1alpha1/nodeoverlay.go` `OrderByWeight`;
 * `pkg/controllers/nodeoverlay/controller.go` `getOverlaidOfferings`,
 * `validateAndUpdateInstanceTypeOverrides`; `store.go`
 * `updateInstanceTypeCapacity`, `isCapacityUpdateConflicting`,
 * `updateInstanceTypeOffering`, `isOfferingUpdateConflicting`):
 *
 * - overlays are taken highest `weight` first (none: 0); of equal weight,
 *   the name later in the alphabet first;
 * - an overlay matches a machine of a NodePool when its requirements are
 *   compatible with the machine's labels, `karpenter.sh/nodepool=<pool>`
 *   and the NodePool's template labels (not its requirements);
 * - a resource keeps the capacity of the first overlay that sets it, so the
 *   highest weight wins, and the capacities of several overlays merge;
 * - an overlay of the same weight as the last one applied to a machine
 *   that sets one of its resources (or a price beside one already set at
 *   that weight) conflicts: Karpenter marks it `ValidationSucceeded=False`
 *   (Conflict) and applies it to no machine at all.
 */
import type { InstanceType } from '../catalog/types';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import { machineLabelsOf } from '../providers/karpenterMachines';
import { requirementAllows } from '../providers/karpenterRequirements';
import { compareStrings } from '../text/compareStrings';

/**
 * The parts of a NodeOverlay Karpenter reads.
 *
 * @public
 */
export interface NodeOverlayLike {
  name: string;
  weight?: number;
  requirements: NodeSelectorRequirement[];
  capacity?: Record<string, string>;
  price?: string;
  priceAdjustment?: string;
}

/**
 * A NodePool as overlays see it: its name, its template labels and the
 * catalog machines its requirements allow.
 *
 * @public
 */
export interface OverlaidPool {
  name: string;
  templateLabels: Record<string, string>;
  machines: readonly InstanceType[];
}

/**
 * A value Karpenter believes, and the overlay it comes from.
 *
 * @public
 */
export interface OverlaidValue {
  value: string;
  overlay: string;
}

/**
 * One machine of one pool after the overlays: `capacity` per resource an
 * applied overlay sets; `price` the applied price or adjustment; `named`
 * the resources any matching overlay sets, applied or not.
 *
 * @public
 */
export interface OverlaidMachine {
  pool: string;
  machine: InstanceType;
  capacity: Record<string, OverlaidValue>;
  price?: OverlaidValue & { field: 'price' | 'priceAdjustment' };
  named: string[];
}

/**
 * Every machine of every pool, and the overlays Karpenter rejects as
 * conflicting.
 *
 * @public
 */
export interface NodeOverlayOutcome {
  machines: OverlaidMachine[];
  conflicting: string[];
}

/** Label prefixes Karpenter or its cloud providers define on every machine: an absent one is the catalog's gap, not the machine's. */
const KNOWN_PREFIXES = [
  'karpenter.sh/',
  'karpenter.k8s.aws/',
  'karpenter.azure.com/',
  'kubernetes.io/',
  'node.kubernetes.io/',
  'topology.kubernetes.io/',
  'topology.k8s.aws/',
];

/**
 * Whether the overlay's requirements are compatible with a machine's
 * labels. A label the catalog does not know but Karpenter does (a zone, a
 * capacity type) may match; a custom label the NodePool does not define
 * matches only `NotIn` / `DoesNotExist`.
 */
function matches(
  requirements: readonly NodeSelectorRequirement[],
  labels: Readonly<Record<string, string>>,
): boolean {
  return requirements.every(r => {
    const value = labels[r.key];
    if (value !== undefined) return requirementAllows(r, value);
    return (
      KNOWN_PREFIXES.some(prefix => r.key.startsWith(prefix)) ||
      requirementAllows(r, undefined)
    );
  });
}

/** The labels an overlay is matched against on one machine of `pool`. */
function overlaidLabels(
  pool: OverlaidPool,
  machine?: InstanceType,
): Record<string, string> {
  return {
    ...(machine ? machineLabelsOf(machine) : {}),
    ...pool.templateLabels,
    [WELL_KNOWN_KEYS.karpenterNodePool]: pool.name,
  };
}

/**
 * Whether an overlay of these requirements matches some machine of `pool`
 * (the rule `applyNodeOverlays` applies; a pool whose machines the catalog
 * does not know is matched on its name and template labels, any well-known
 * label possible), so that it may change what Karpenter believes there.
 *
 * @public
 */
export function overlayReachesPool(
  requirements: readonly NodeSelectorRequirement[],
  pool: OverlaidPool,
): boolean {
  if (pool.machines.length === 0) {
    return matches(requirements, overlaidLabels(pool));
  }
  return pool.machines.some(machine =>
    matches(requirements, overlaidLabels(pool, machine)),
  );
}

/** Karpenter's order: highest weight first, then the name later in the alphabet. */
function byPrecedence(a: NodeOverlayLike, b: NodeOverlayLike): number {
  const weights = (b.weight ?? 0) - (a.weight ?? 0);
  return weights !== 0 ? weights : compareStrings(b.name, a.name);
}

interface MachineState {
  machine: OverlaidMachine;
  labels: Record<string, string>;
  capacityWeight?: number;
  capacityResources: string[];
  priceWeight?: number;
}

function conflicts(state: MachineState, overlay: NodeOverlayLike): boolean {
  const weight = overlay.weight ?? 0;
  const capacity = Object.keys(overlay.capacity ?? {});
  const capacityClash =
    state.capacityWeight === weight &&
    capacity.some(r => state.capacityResources.includes(r));
  const priced = overlay.price ?? overlay.priceAdjustment;
  const priceClash =
    priced !== undefined &&
    state.machine.price !== undefined &&
    state.priceWeight === weight;
  return capacityClash || priceClash;
}

function apply(state: MachineState, overlay: NodeOverlayLike): void {
  const weight = overlay.weight ?? 0;
  const capacity = overlay.capacity ?? {};
  if (Object.keys(capacity).length > 0) {
    for (const [resource, value] of Object.entries(capacity)) {
      state.machine.capacity[resource] ??= { value, overlay: overlay.name };
    }
    state.capacityWeight = weight;
    state.capacityResources = Object.keys(capacity);
  }
  const field = overlay.price !== undefined ? 'price' : 'priceAdjustment';
  const value = overlay.price ?? overlay.priceAdjustment;
  if (value === undefined) return;
  state.machine.price ??= { field, value, overlay: overlay.name };
  state.priceWeight = weight;
}

/**
 * The machines `overlay` may match: those of the pools it names with
 * `karpenter.sh/nodepool In`, whose label every machine of a pool carries
 * with the pool's name, else all. The product scopes each of its overlays
 * to one pool so: on a 2k-pool cluster, testing each of its 2k overlays
 * against every machine of every pool held a verification for seconds.
 */
function candidates(
  overlay: NodeOverlayLike,
  states: readonly MachineState[],
  byPool: ReadonlyMap<string, readonly MachineState[]>,
): readonly MachineState[] {
  const named = overlay.requirements.find(
    r => r.key === WELL_KNOWN_KEYS.karpenterNodePool && r.operator === 'In',
  );
  if (!named) return states;
  return [...new Set(named.values ?? [])].flatMap(
    pool => byPool.get(pool) ?? [],
  );
}

/**
 * The overlays applied to every machine of `pools`, in Karpenter's order
 * (see the file comment).
 *
 * @public
 */
export function applyNodeOverlays(
  overlays: readonly NodeOverlayLike[],
  pools: readonly OverlaidPool[],
): NodeOverlayOutcome {
  const states: MachineState[] = pools.flatMap(pool =>
    pool.machines.map(machine => ({
      machine: { pool: pool.name, machine, capacity: {}, named: [] },
      labels: overlaidLabels(pool, machine),
      capacityResources: [],
    })),
  );
  const byPool = new Map<string, MachineState[]>();
  for (const state of states) {
    const ofPool = byPool.get(state.machine.pool);
    if (ofPool) ofPool.push(state);
    else byPool.set(state.machine.pool, [state]);
  }
  const conflicting: string[] = [];
  for (const overlay of [...overlays].sort(byPrecedence)) {
    const reached = candidates(overlay, states, byPool).filter(s =>
      matches(overlay.requirements, s.labels),
    );
    for (const state of reached) {
      const named = new Set([
        ...state.machine.named,
        ...Object.keys(overlay.capacity ?? {}),
      ]);
      state.machine.named = [...named].sort(compareStrings);
    }
    if (reached.some(s => conflicts(s, overlay))) {
      conflicting.push(overlay.name);
      continue;
    }
    reached.forEach(state => apply(state, overlay));
  }
  return { machines: states.map(s => s.machine), conflicting };
}
