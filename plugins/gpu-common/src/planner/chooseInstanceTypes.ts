import { isPriceKnown } from '../capacity/poolCost';
import type { InstanceType } from '../catalog/types';
import { compareStrings } from '../text/compareStrings';

/** One candidate machine shape, scored for this request. */
export interface InstanceChoice {
  type: InstanceType;
  /** Units of the request's resource one node offers. */
  unitsPerNode: number;
  /** Replicas of this request one node holds. */
  replicasPerNode: number;
  /** USD per hour per usable unit; Infinity when the price is unknown. */
  usdPerUnit: number;
  priceKnown: boolean;
}

export { isPriceKnown };

/**
 * Scores the model's instance types for a request: units per node, USD per
 * unit. Types that cannot hold one replica are dropped. Returned cheapest per
 * unit first (unknown prices last), ties by fewer GPUs then name, so the order
 * is deterministic. Which of them the pool's nodes are priced on is the cost
 * model's choice (capacity/poolCost.ts).
 */
export function scoreInstanceTypes(
  types: InstanceType[],
  options: {
    unitsPerGpu: number;
    resourcePerReplica: number;
    minGpusPerNode: number;
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
    const priceKnown = isPriceKnown(type);
    const usableUnits = replicasPerNode * options.resourcePerReplica;
    choices.push({
      type,
      unitsPerNode,
      replicasPerNode,
      usdPerUnit: priceKnown ? type.onDemandUsdPerHour / usableUnits : Infinity,
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
