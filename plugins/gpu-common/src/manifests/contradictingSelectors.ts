/**
 * Whether a pool's nodes can satisfy a pod's node selection (its
 * `nodeSelector` entries and required node-affinity expressions), from a
 * plain description of the labels those nodes carry. Kept apart from where
 * the description comes from (`poolNodeLabels.ts` today, the scheduling
 * model later), so the rule "does this node satisfy this selector" has one
 * home whichever reader describes the nodes.
 *
 * Semantics follow the Kubernetes scheduler (k8s.io/component-helpers
 * scheduling/corev1/nodeaffinity, v1.31): `nodeSelector` entries and the
 * expressions of one term must all hold; the terms of
 * `requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms` are ORed.
 */

/**
 * The labels a pool's nodes carry: each key with the values some node of the
 * pool may have, or `'any'` when the value cannot be told before the node
 * exists (a zone, a hostname). A key absent from the record is a label no
 * node of the pool carries.
 *
 * @public
 */
export type NodeLabelValues = Record<string, readonly string[] | 'any'>;

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

/** True when some node of the pool has label `key` with `value`. */
export function nodeSelectorEntryFits(
  labels: NodeLabelValues,
  key: string,
  value: string,
): boolean {
  const values = labels[key];
  if (values === undefined) return false;
  return values === 'any' || values.includes(value);
}

function compares(
  values: readonly string[] | 'any',
  bound: string | undefined,
  holds: (value: number, bound: number) => boolean,
): boolean {
  if (values === 'any') return true;
  const limit = Number(bound);
  return values.some(v => /^-?\d+$/.test(v) && holds(Number(v), limit));
}

/**
 * True when some node of the pool satisfies the expression. A label whose
 * value cannot be told satisfies every operator but `DoesNotExist`; an
 * unknown operator is kept (the API server refuses it anyway).
 */
export function expressionFits(
  labels: NodeLabelValues,
  expression: NodeSelectorExpression,
): boolean {
  const values = labels[expression.key];
  const asked = expression.values ?? [];
  switch (expression.operator) {
    case 'In':
      return asked.some(v => nodeSelectorEntryFits(labels, expression.key, v));
    case 'NotIn':
      return (
        values === undefined ||
        values === 'any' ||
        values.some(v => !asked.includes(v))
      );
    case 'Exists':
      return values !== undefined;
    case 'DoesNotExist':
      return values === undefined;
    case 'Gt':
      return (
        values !== undefined && compares(values, asked[0], (v, b) => v > b)
      );
    case 'Lt':
      return (
        values !== undefined && compares(values, asked[0], (v, b) => v < b)
      );
    default:
      return true;
  }
}

/** The expressions of a term the pool's nodes cannot satisfy. */
export function contradictingExpressions(
  labels: NodeLabelValues,
  term: NodeSelectorTerm,
): NodeSelectorExpression[] {
  return (term.matchExpressions ?? []).filter(e => !expressionFits(labels, e));
}

/**
 * The terms that fit the pool, or undefined when the terms need no change.
 * Terms are ORed, so one term the pool satisfies is enough and nothing
 * changes. When none does, each term keeps the expressions the pool
 * satisfies, and a term left with nothing goes (an empty term matches no
 * node); an empty result means the requirement goes as a whole.
 */
export function fittingTerms(
  labels: NodeLabelValues,
  terms: readonly NodeSelectorTerm[],
): NodeSelectorTerm[] | undefined {
  if (terms.length === 0) return undefined;
  if (terms.some(t => contradictingExpressions(labels, t).length === 0)) {
    return undefined;
  }
  return terms.flatMap(term => {
    const kept = (term.matchExpressions ?? []).filter(e =>
      expressionFits(labels, e),
    );
    const fitting: NodeSelectorTerm = { ...term };
    if (kept.length > 0) fitting.matchExpressions = kept;
    else delete fitting.matchExpressions;
    return fitting.matchExpressions || fitting.matchFields ? [fitting] : [];
  });
}
