/**
 * One node selector requirement, the shape Kubernetes gives a node
 * affinity's `matchExpressions` entry and Karpenter a NodePool's or
 * NodeOverlay's `requirements[]` entry (karpenter.sh/v1 NodePool CRD,
 * `spec.template.spec.requirements`, with its `minValues`). Its own file:
 * the planner's types, the providers and the scheduling model all speak of
 * it, and none of them needs the NodePool builder that writes it.
 */

/**
 * A NodePool / NodeOverlay `requirements[]` entry.
 *
 * @public
 */
export interface NodeSelectorRequirement {
  key: string;
  operator:
    'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | 'Gte' | 'Lte';
  values?: string[];
  minValues?: number;
}
