/**
 * The resources NodeOverlays add to a NodePool's nodes in the landing
 * model. An overlay's `capacity` tells Karpenter a node of the instance
 * types it matches holds an extended resource (e.g. `nvidia.com/gpu.shared:
 * 8`, the slices a time-slicing device plugin advertises), so Karpenter
 * launches such a node for a pod asking for it (kubernetes-sigs/karpenter
 * v1.14.1 `pkg/apis/v1alpha1/nodeoverlay.go`, Karpenter docs
 * "NodeOverlays": capacity "adds extended resources"): a pod asking for
 * `nvidia.com/gpu.shared` lands on a pool that only an overlay gives it,
 * the team's own overlays on the product's pools included. A resource the
 * pool's device plugin already advertises keeps the plugin's count (what
 * Karpenter believes of it is `validate`'s `builtOverlays.ts`).
 */
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import { requirementAllows } from '../providers/karpenterRequirements';
import { compareStrings } from '../text/compareStrings';
import { labelAllowance, type PoolNodeShape } from './nodeShape';
import type { NodeOverlayLike } from './nodeOverlays';

/** Whether some node of `shape` may satisfy the overlay's requirement, by the labels its nodes may carry (`labelAllowance`). */
function mayMatch(
  shape: PoolNodeShape,
  requirement: NodeSelectorRequirement,
): boolean {
  const allowance = labelAllowance(shape, requirement.key);
  if (allowance.kind === 'absent') {
    return requirementAllows(requirement, undefined);
  }
  if (allowance.kind === 'values') {
    return allowance.values.some(v => requirementAllows(requirement, v));
  }
  if (requirement.operator === 'In') {
    return (requirement.values ?? []).some(v => !allowance.except.includes(v));
  }
  return requirement.operator !== 'DoesNotExist' || allowance.mayBeAbsent;
}

/**
 * Whether the overlay may match a node Karpenter launches for `shape` (its
 * nodes' labels carry the pool's name and template labels).
 *
 * @public
 */
export function overlayMayMatchShape(
  overlay: NodeOverlayLike,
  shape: PoolNodeShape,
): boolean {
  return (
    shape.launchesWellKnown &&
    overlay.requirements.every(r => mayMatch(shape, r))
  );
}

/** Karpenter's order: highest weight first, then the name later in the alphabet (`nodeOverlays.ts`). */
function byPrecedence(a: NodeOverlayLike, b: NodeOverlayLike): number {
  const weights = (b.weight ?? 0) - (a.weight ?? 0);
  return weights !== 0 ? weights : compareStrings(b.name, a.name);
}

/** A whole count of a quantity (`8`, `'8'`); else undefined (not judged). */
function countOf(quantity: string): number | undefined {
  return /^\d+$/.test(quantity.trim()) ? Number(quantity.trim()) : undefined;
}

const NODE_POOL_LABEL = 'karpenter.sh/nodepool';

/**
 * The overlays that may reach a shape's nodes, in precedence order. Most
 * overlays name their NodePools (`karpenter.sh/nodepool In [...]`, as the
 * product writes one per pool): those are looked up by the pool names a
 * shape's nodes may carry rather than matched against every shape, so
 * thousands of pools with an overlay each cost pools + overlays, not their
 * product. The match itself is still `overlayMayMatchShape`.
 */
function overlayCandidates(
  ordered: NodeOverlayLike[],
): (shape: PoolNodeShape) => NodeOverlayLike[] {
  const rank = new Map(ordered.map((overlay, index) => [overlay, index]));
  const byPool = new Map<string, NodeOverlayLike[]>();
  const anyPool: NodeOverlayLike[] = [];
  for (const overlay of ordered) {
    const named = overlay.requirements.find(
      r => r.key === NODE_POOL_LABEL && r.operator === 'In',
    );
    if (!named) {
      anyPool.push(overlay);
      continue;
    }
    for (const pool of new Set(named.values ?? [])) {
      const listed = byPool.get(pool);
      if (listed) listed.push(overlay);
      else byPool.set(pool, [overlay]);
    }
  }
  return shape => {
    const allowance = labelAllowance(shape, NODE_POOL_LABEL);
    if (allowance.kind !== 'values') return ordered;
    const found = new Set(anyPool);
    for (const pool of allowance.values) {
      for (const overlay of byPool.get(pool) ?? []) found.add(overlay);
    }
    return [...found].sort((a, b) => rank.get(a)! - rank.get(b)!);
  };
}

/**
 * `shapes` with the resources the `overlays` reaching each NodePool's nodes
 * add to those it advertises (see the file comment). A shape whose
 * resources are not known stays so.
 *
 * @public
 */
export function withOverlaidResources(
  shapes: readonly PoolNodeShape[],
  overlays: readonly NodeOverlayLike[],
): PoolNodeShape[] {
  if (overlays.length === 0) return [...shapes];
  const candidates = overlayCandidates([...overlays].sort(byPrecedence));
  return shapes.map(shape => {
    if (!shape.resources) return shape;
    const resources = [...shape.resources];
    for (const overlay of candidates(shape)) {
      if (!overlayMayMatchShape(overlay, shape)) continue;
      for (const [name, quantity] of Object.entries(overlay.capacity ?? {})) {
        if (resources.some(r => r.name === name)) continue;
        const perNode = countOf(String(quantity));
        resources.push(perNode === undefined ? { name } : { name, perNode });
      }
    }
    return resources.length === shape.resources.length
      ? shape
      : { ...shape, resources };
  });
}
