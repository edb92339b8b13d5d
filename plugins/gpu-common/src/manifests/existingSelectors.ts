/**
 * An existing workload's own node selection, against the pool a request moves
 * it to: the `nodeSelector` entries and required node-affinity expressions
 * the pool's nodes can never satisfy (a v1alpha5 `karpenter.sh/provisioner-
 * name`, a team's `intent: gpu-workloads`, `nvidia.com/gpu.present`, an
 * instance family the pool's requirements forbid) would keep its patched
 * pods Pending, so the patch removes exactly those and keeps every other.
 * The release restores them (gpu-node `workloads/replacedFields.ts`).
 *
 * The pool's nodes are the scheduling model's (`scheduling/plannedPoolShape.ts`)
 * and each selector is judged by its rule (`expressionSatisfiable`), so the
 * patch keeps exactly what `verify` and `validate` accept.
 */
import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import { expressionSatisfiable } from '../scheduling/landingPools';
import { labelAllowance, type PoolNodeShape } from '../scheduling/nodeShape';
import { plannedPoolShape } from '../scheduling/plannedPoolShape';

const GPU_PRODUCT = 'nvidia.com/gpu.product';
import {
  contradictingExpressions,
  fittingTerms,
  type ExpressionFits,
  type NodeSelectorExpression,
  type NodeSelectorTerm,
} from './contradictingSelectors';
import type { NodeSelectorRequirement } from './nodeSelectorRequirement';
import { podPlacement } from './podPlacement';
import type { WorkloadView } from './workloadShape';

/**
 * A workload's own node selection, as deployed.
 *
 * @public
 */
export type WorkloadSelection = Pick<
  WorkloadView,
  'nodeSelector' | 'requiredNodeSelectorTerms'
>;

/**
 * One selector of the workload the patch removes, and why.
 *
 * @public
 */
export interface SelectorChange {
  /** Where the selector is: `nodeSelector`, or a required node-affinity term. */
  field: 'nodeSelector' | 'nodeAffinity';
  /** `key: value` of a nodeSelector entry, or `key Operator [values]` of an expression. */
  selector: string;
  /** Why the pool's nodes never satisfy it. */
  reason: string;
}

/**
 * What the patch writes for the workload's own node selection.
 *
 * @public
 */
export interface SelectorPatch {
  /** nodeSelector keys to delete (strategic merge: `null` deletes a key). */
  deletedSelectors: Record<string, null>;
  /**
   * The required node-affinity terms to write instead of the workload's (the
   * list has no merge key, so a patch replaces it whole); `null` removes the
   * requirement; undefined leaves it as it is.
   */
  requiredTerms?: NodeSelectorTerm[] | null;
  /** Each selector removed, and why. */
  changes: SelectorChange[];
}

const GPU_FEATURE_DISCOVERY = /^(nvidia\.com|feature\.node\.kubernetes\.io)\//;

function whyNot(shape: PoolNodeShape, key: string): string {
  const allowance = labelAllowance(shape, key);
  const pool = shape.pool;
  if (allowance.kind === 'absent') {
    const later = GPU_FEATURE_DISCOVERY.test(key)
      ? ' before they run (GPU Feature Discovery sets it on a running node, so it cannot bring one up)'
      : '';
    return `no node of pool "${pool}" carries label ${key}${later}`;
  }
  if (allowance.kind === 'any') {
    return allowance.except.length > 0
      ? `the nodes of pool "${pool}" have ${key} set, never to ${allowance.except.join(', ')}`
      : `the nodes of pool "${pool}" always have ${key} set`;
  }
  return allowance.values.length > 0
    ? `the nodes of pool "${pool}" have ${key} ${allowance.values.join(', ')} only`
    : `the nodes of pool "${pool}" can carry no value of ${key}`;
}

/** The model's rule for one expression on the shape's nodes. */
function fitsOn(shape: PoolNodeShape): ExpressionFits {
  return expression =>
    expressionSatisfiable(shape, expression as NodeSelectorRequirement);
}

function expressionText(e: NodeSelectorExpression): string {
  return `${e.key} ${e.operator}${e.values ? ` [${e.values.join(', ')}]` : ''}`;
}

function deletedSelectors(
  current: WorkloadSelection,
  shape: PoolNodeShape,
  placed: Record<string, string>,
): { deleted: Record<string, null>; changes: SelectorChange[] } {
  const deleted: Record<string, null> = {};
  const changes: SelectorChange[] = [];
  const fits = fitsOn(shape);
  for (const [key, value] of Object.entries(current.nodeSelector)) {
    if (key in placed || fits({ key, operator: 'In', values: [value] })) {
      continue;
    }
    deleted[key] = null;
    changes.push({
      field: 'nodeSelector',
      selector: `${key}: ${value}`,
      reason: whyNot(shape, key),
    });
  }
  return { deleted, changes };
}

function affinityChanges(
  terms: readonly NodeSelectorTerm[],
  shape: PoolNodeShape,
): SelectorChange[] {
  return terms.flatMap(term =>
    contradictingExpressions(fitsOn(shape), term).map(e => ({
      field: 'nodeAffinity' as const,
      selector: expressionText(e),
      reason: whyNot(shape, e.key),
    })),
  );
}

/**
 * The patch's part for the workload's own selectors on the plan's pool.
 *
 * @public
 */
export function existingSelectorPatch(
  plan: Plan,
  cluster: ClusterProfile,
  current: WorkloadSelection,
): SelectorPatch {
  const shape = plannedPoolShape(plan, cluster);
  const placed = podPlacement(plan, cluster).nodeSelector;
  const { deleted, changes } = deletedSelectors(current, shape, placed);
  const terms = current.requiredNodeSelectorTerms ?? [];
  const fitting = fittingTerms(fitsOn(shape), terms);
  if (fitting === undefined) return { deletedSelectors: deleted, changes };
  return {
    deletedSelectors: deleted,
    requiredTerms: fitting.length > 0 ? fitting : null,
    changes: [...changes, ...affinityChanges(terms, shape)],
  };
}

/**
 * The plan's words for each selector the patch removes ("nodeSelector
 * `intent: gpu-workloads` removed: no node of pool … carries label intent;
 * a release puts it back").
 *
 * @public
 */
export function describeSelectorChanges(
  changes: readonly SelectorChange[],
): string[] {
  return changes.map(
    c =>
      `The workload's ${c.field} \`${c.selector}\` is removed for this request: ${c.reason}, so its pods could land nowhere; a release puts it back.`,
  );
}

/**
 * The workload's `nvidia.com/gpu.product` selector, when the pool's nodes
 * run before its pods (so GPU Feature Discovery's label decides) but the
 * catalog knows no product name for the pool's model: kept, unjudged, and
 * said so rather than taken to fit.
 */
function unknownProductNote(
  shape: PoolNodeShape,
  plan: Plan,
  current: WorkloadSelection,
): string[] {
  const selected = current.nodeSelector[GPU_PRODUCT];
  if (selected === undefined || shape.launchesWellKnown || shape.gpuProducts) {
    return [];
  }
  return [
    `The workload's nodeSelector \`${GPU_PRODUCT}: ${selected}\` is kept but cannot be checked: the GPU Feature Discovery product name of model ${plan.pool.gpuModel} is not known to the catalog; make sure the nodes of pool "${plan.pool.name}" carry it, or the pods land nowhere.`,
  ];
}

/**
 * The plan, with a warning for each of the existing workload's own
 * selectors the patch takes out (its pool's nodes never satisfy them): one
 * source for the pull request and the preview (`POST /plan`, the form).
 *
 * @public
 */
export function withSelectorWarnings(
  plan: Plan,
  cluster: ClusterProfile,
  current: WorkloadSelection,
): Plan {
  const { changes } = existingSelectorPatch(plan, cluster, current);
  const notes = [
    ...describeSelectorChanges(changes),
    ...unknownProductNote(plannedPoolShape(plan, cluster), plan, current),
  ];
  if (notes.length === 0) return plan;
  return { ...plan, warnings: [...plan.warnings, ...notes] };
}
