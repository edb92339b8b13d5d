import type { InstanceType } from '../catalog/types';
import { compareStrings } from './content-hash';

/** One candidate machine shape, scored for this request. */
export interface InstanceChoice {
  type: InstanceType;
  /** Units of the request's resource one node offers. */
  unitsPerNode: number;
  /** Replicas of this request one node holds. */
  replicasPerNode: number;
  /** Nodes this request needs on this type alone. */
  nodes: number;
  /** USD per hour per usable unit; Infinity when the price is unknown. */
  usdPerUnit: number;
  /** USD per hour for `nodes`; Infinity when the price is unknown. */
  usdPerHour: number;
  priceKnown: boolean;
}

/**
 * A price of 0 means "unknown" for cloud machines (e.g. capacity-block-only
 * types) but "owned" for on-prem flavors.
 */
export function isPriceKnown(type: InstanceType): boolean {
  return type.onDemandUsdPerHour > 0 || type.provider === 'static';
}

/**
 * Scores the model's instance types for a request: units per node, nodes
 * needed, USD per unit. Types that cannot hold one replica are dropped.
 * Returned cheapest per unit first (unknown prices last), ties by fewer GPUs
 * then name, so the order is deterministic.
 */
export function scoreInstanceTypes(
  types: InstanceType[],
  options: {
    unitsPerGpu: number;
    resourcePerReplica: number;
    minGpusPerNode: number;
    replicas: number;
  },
): InstanceChoice[] {
  const choices: InstanceChoice[] = [];
  for (const type of types) {
    if (type.gpusPerNode < options.minGpusPerNode) continue;
    const unitsPerNode = type.gpusPerNode * options.unitsPerGpu;
    const replicasPerNode = Math.floor(
      unitsPerNode / options.resourcePerReplica,
    );
    if (replicasPerNode < 1) continue;
    const nodes = Math.ceil(options.replicas / replicasPerNode);
    const priceKnown = isPriceKnown(type);
    const usableUnits = replicasPerNode * options.resourcePerReplica;
    choices.push({
      type,
      unitsPerNode,
      replicasPerNode,
      nodes,
      usdPerUnit: priceKnown ? type.onDemandUsdPerHour / usableUnits : Infinity,
      usdPerHour: priceKnown ? type.onDemandUsdPerHour * nodes : Infinity,
      priceKnown,
    });
  }
  return choices.sort(
    (a, b) =>
      a.usdPerUnit - b.usdPerUnit ||
      a.type.gpusPerNode - b.type.gpusPerNode ||
      compareStrings(a.type.name, b.type.name),
  );
}

/**
 * The type Karpenter would launch for this request alone: the lowest total
 * price for the nodes it needs (a cheap-per-slice 8-GPU node is no bargain
 * for one replica), then the cheaper per unit.
 */
export function cheapestForRequest(choices: InstanceChoice[]): InstanceChoice {
  let best = choices[0];
  for (const choice of choices) {
    // Strictly cheaper only: on ties the earlier (cheaper per unit) type stays.
    if (choice.usdPerHour < best.usdPerHour) best = choice;
  }
  return best;
}
