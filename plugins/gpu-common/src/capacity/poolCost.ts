/**
 * The cost model: what a pool's nodes cost and who pays for them. One rule for
 * every place that shows money (the planner, so the PR body, the preview and
 * the action outputs; the gpu backend, so the card and the tab).
 *
 * - A pool runs the nodes its ledger needs (the same bin packing that derives
 *   its limit, `poolNeed.ts`), on ONE machine type of the pool: the cheapest
 *   total for those nodes among the types that hold its largest replica and
 *   stay within the limit the ledger derives (Karpenter may launch nothing
 *   beyond it). Price: on-demand list price x 730 h, in integer cents.
 * - A pool whose nodes are fixed (a static pool chosen by GPU: its
 *   NodeFeatureRule labels and taints every node of its model) runs all of
 *   them while anyone holds it, whatever fewer its ledger would need.
 * - A request's ATTRIBUTED cost is its share of those nodes, by the units of
 *   the pool's resource it holds; the units nobody holds are the pool's IDLE
 *   cost. Shares are split with the largest-remainder method, so per pool
 *   attributed + idle = the nodes' price, to the cent.
 * - A request's MARGINAL cost (planner) is what it adds to the bill: the
 *   pools' prices after the change minus before.
 */
import type { InstanceType, MachineProvider } from '../catalog/types';
import type { LedgerEntry } from './ledger';
import {
  nodesNeeded,
  referenceNodeShape,
  unitsOf,
  type ReplicaGroup,
} from './poolNeed';

/** Hours per month used for monthly prices (365 * 24 / 12), as AWS does. */
export const HOURS_PER_MONTH = 730;

/**
 * Machines on the organisation's own hardware: on-prem nodes, the flavors
 * of its OpenStack cloud, its vSphere VM shapes and its bare-metal host
 * classes.
 */
const OWNED_MACHINES: ReadonlySet<MachineProvider> = new Set([
  'static',
  'openstack',
  'vsphere',
  'metal3',
]);

/**
 * A price of 0 means "unknown" for cloud machines (e.g. capacity-block-only
 * types) but "owned" for on-prem machines, OpenStack flavors, vSphere VMs
 * and bare-metal hosts (a configured chargeback rate replaces it).
 */
export function isPriceKnown(type: InstanceType): boolean {
  return type.onDemandUsdPerHour > 0 || OWNED_MACHINES.has(type.provider);
}

/** One node of `type` for a month, in integer cents (0 when the price is unknown). */
export function monthlyCentsOf(type: InstanceType): number {
  if (!isPriceKnown(type)) return 0;
  return Math.round(type.onDemandUsdPerHour * HOURS_PER_MONTH * 100 + 1e-7);
}

/** How a pool is priced: its resource per GPU and the machines it may launch. */
export interface PoolPricingInput {
  /** Units of the pool's resource one physical GPU offers. */
  unitsPerGpu: number;
  /** A static pool (DRA) limits nodes rather than GPUs. */
  staticPool: boolean;
  /** The pool's instance types the catalog knows. */
  machines: readonly InstanceType[];
  /**
   * The nodes the pool holds whatever its ledger needs, while its ledger is
   * not empty (see `fixedPoolNodes`); undefined for pools sized by ledger.
   */
  fixedNodes?: number;
  /**
   * The nodes the pool keeps even when its ledger needs fewer, or none (a
   * team's MachineDeployment the import adopted: the nodes it ran, see
   * `planner/nodeFloor.ts`); undefined for pools sized by their ledger.
   */
  floorNodes?: number;
}

/**
 *  The nodes a pool runs for a ledger, and what they cost.
 *
 * @public
 */
export interface PoolNodes {
  nodes: number;
  /** The machine type priced; undefined when the catalog knows none of the pool's. */
  instanceType?: string;
  gpusPerNode: number;
  /** Units of the pool's resource one node offers. */
  unitsPerNode: number;
  /** One node for a month, in cents (0 when unknown or owned). */
  nodeCents: number;
  /** False when the machine is a cloud type without a known price (costs show 0). */
  priceKnown: boolean;
  /** nodes x nodeCents. */
  totalCents: number;
}

/**
 *  One holder of a pool's capacity and its share of the price.
 *
 * @public
 */
export interface CostShare {
  /** `<namespace>/<name>` of the request (a ledger entry). */
  request: string;
  units: number;
  cents: number;
}

/** @public */
export interface PoolCost extends PoolNodes {
  /** nodes x unitsPerNode. */
  capacityUnits: number;
  /** Units the ledger's requests hold. */
  allocatedUnits: number;
  /** Units nobody holds: what the idle cost pays for. */
  idleUnits: number;
  idleCents: number;
  /** One per ledger entry, in ledger order; with idleCents they sum to totalCents. */
  shares: CostShare[];
}

function groupsOf(ledger: readonly LedgerEntry[]): ReplicaGroup[] {
  return ledger.map(e => ({
    replicas: e.replicas,
    unitsPerReplica: e.unitsPerReplica,
  }));
}

/**
 * The nodes a pool runs for `ledger`: see the file comment. Throws
 * ReplicaTooLargeError (poolNeed.ts) when no machine holds a replica.
 */
export function poolNodes(
  ledger: readonly LedgerEntry[],
  pricing: PoolPricingInput,
): PoolNodes {
  const groups = groupsOf(ledger);
  const largest = Math.max(0, ...groups.map(g => g.unitsPerReplica));
  const holding = pricing.machines.filter(
    m => m.gpusPerNode > 0 && m.gpusPerNode * pricing.unitsPerGpu >= largest,
  );
  const shape = referenceNodeShape(
    holding.map(m => m.gpusPerNode),
    pricing.unitsPerGpu,
    largest,
  );
  // No machine the catalog knows: nodes of the fewest GPUs that hold a replica.
  const referenceUnits =
    shape?.unitsPerNode ??
    Math.ceil(largest / pricing.unitsPerGpu) * pricing.unitsPerGpu;
  const referenceNodes = nodesNeeded(groups, referenceUnits);
  if (holding.length === 0 || !shape) {
    return {
      nodes: referenceNodes,
      gpusPerNode: referenceUnits / pricing.unitsPerGpu,
      unitsPerNode: referenceUnits,
      nodeCents: 0,
      priceKnown: false,
      totalCents: 0,
    };
  }
  // What the ledger's limit allows: nodes for a static pool, GPUs otherwise.
  const allowed = pricing.staticPool
    ? referenceNodes
    : referenceNodes * shape.gpusPerNode;
  const options = holding
    .map(machine => {
      const unitsPerNode = machine.gpusPerNode * pricing.unitsPerGpu;
      const nodes = nodesNeeded(groups, unitsPerNode);
      const nodeCents = monthlyCentsOf(machine);
      return {
        machine,
        nodes,
        unitsPerNode,
        nodeCents,
        totalCents: nodes * nodeCents,
        known: isPriceKnown(machine),
        withinLimit: pricing.staticPool
          ? nodes <= allowed
          : nodes * machine.gpusPerNode <= allowed,
      };
    })
    .filter(o => o.withinLimit)
    .sort(
      (a, b) =>
        Number(b.known) - Number(a.known) ||
        a.totalCents - b.totalCents ||
        a.machine.gpusPerNode - b.machine.gpusPerNode ||
        (a.machine.name < b.machine.name ? -1 : 1),
    );
  // The reference machines always stay within the limit they define.
  const best = options[0];
  const fixed =
    best.nodes > 0 && pricing.fixedNodes !== undefined
      ? Math.max(best.nodes, pricing.fixedNodes)
      : best.nodes;
  const nodes = Math.max(fixed, pricing.floorNodes ?? 0);
  return {
    nodes,
    instanceType: best.machine.name,
    gpusPerNode: best.machine.gpusPerNode,
    unitsPerNode: best.unitsPerNode,
    nodeCents: best.nodeCents,
    priceKnown: best.known,
    totalCents: nodes * best.nodeCents,
  };
}

/**
 * Splits `totalCents` among claimants in proportion to their units with the
 * largest-remainder (Hamilton) method: every claimant gets the floor of its
 * exact share, and the cents left go one each to the largest remainders
 * (ties: earlier claimant first). The parts always sum to `totalCents`.
 */
export function splitCents(
  totalCents: number,
  units: readonly number[],
): number[] {
  const sum = units.reduce((s, u) => s + u, 0);
  if (sum <= 0 || totalCents === 0) return units.map(() => 0);
  const exact = units.map(u => totalCents * u);
  const parts = exact.map(e => Math.floor(e / sum));
  let left = totalCents - parts.reduce((s, p) => s + p, 0);
  const order = exact
    .map((e, i) => ({ i, remainder: e - parts[i] * sum }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] += 1;
    left -= 1;
  }
  return parts;
}

/** The pool's nodes for `ledger`, and each request's and the idle share of their price. */
export function poolCost(
  ledger: readonly LedgerEntry[],
  pricing: PoolPricingInput,
): PoolCost {
  const nodes = poolNodes(ledger, pricing);
  const held = ledger.map(e => e.replicas * e.unitsPerReplica);
  const allocatedUnits = unitsOf(groupsOf(ledger));
  const capacityUnits = nodes.nodes * nodes.unitsPerNode;
  const idleUnits = Math.max(0, capacityUnits - allocatedUnits);
  const parts = splitCents(nodes.totalCents, [...held, idleUnits]);
  return {
    ...nodes,
    capacityUnits,
    allocatedUnits,
    idleUnits,
    idleCents: parts[parts.length - 1],
    shares: ledger.map((e, i) => ({
      request: e.request,
      units: held[i],
      cents: parts[i],
    })),
  };
}
