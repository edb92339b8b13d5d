/**
 * Which of a pod's required node-affinity terms a pool's nodes can satisfy,
 * given whether they satisfy one expression (the scheduling model's
 * `expressionSatisfiable`, gpu-common `scheduling/landingPools.ts`: the one
 * rule for "does a node of this pool satisfy this selector").
 *
 * Semantics follow the Kubernetes scheduler (k8s.io/component-helpers
 * scheduling/corev1/nodeaffinity, v1.31): `nodeSelector` entries and the
 * expressions of one term must all hold; the terms of
 * `requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms` are ORed.
 */

/**
 * One `matchExpressions` entry of a node selector term.
 *
 * @public
 */
export interface NodeSelectorExpression {
  /** The node label. */
  key: string;
  /** `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt` or `Lt`. */
  operator: string;
  values?: string[];
}

/**
 * One node selector term (`matchFields` select by node name: kept as written).
 *
 * @public
 */
export interface NodeSelectorTerm {
  /** All must hold. */
  matchExpressions?: NodeSelectorExpression[];
  /** Node fields (`metadata.name`): not judged, kept. */
  matchFields?: unknown[];
}

/** Whether some node of the pool satisfies one expression. */
export type ExpressionFits = (expression: NodeSelectorExpression) => boolean;

/** The expressions of a term the pool's nodes cannot satisfy. */
export function contradictingExpressions(
  fits: ExpressionFits,
  term: NodeSelectorTerm,
): NodeSelectorExpression[] {
  return (term.matchExpressions ?? []).filter(e => !fits(e));
}

/**
 * The terms that fit the pool, or undefined when the terms need no change.
 * Terms are ORed, so one term the pool satisfies is enough and nothing
 * changes. When none does, each term keeps the expressions the pool
 * satisfies, and a term left with nothing goes (an empty term matches no
 * node); an empty result means the requirement goes as a whole.
 */
export function fittingTerms(
  fits: ExpressionFits,
  terms: readonly NodeSelectorTerm[],
): NodeSelectorTerm[] | undefined {
  if (terms.length === 0) return undefined;
  if (terms.some(t => contradictingExpressions(fits, t).length === 0)) {
    return undefined;
  }
  return terms.flatMap(term => {
    const kept = (term.matchExpressions ?? []).filter(fits);
    const fitting: NodeSelectorTerm = { ...term };
    if (kept.length > 0) fitting.matchExpressions = kept;
    else delete fitting.matchExpressions;
    return fitting.matchExpressions || fitting.matchFields ? [fitting] : [];
  });
}
