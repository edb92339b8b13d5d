import { isRecord, type ValidationFinding } from './finding';
import { checkKarpenterLabels } from './karpenterLabels';
import { checkNodePoolRules } from './nodePoolRules';

export interface ObjectRuleOptions {
  /** Cluster's Karpenter version (gates `Gte`/`Lte` and the pre-1.9 label rules). */
  karpenterVersion?: string;
}

/**
 * All rule checks that apply to one Kubernetes object, chosen by its kind:
 * NodePool (restricted labels + NodePool rules), NodeOverlay (restricted
 * labels). Other kinds have no rules beyond their schema and yield nothing.
 * For `gpu-gitops validate`, which walks a repository object by object.
 */
export function checkObjectRules(
  object: unknown,
  options: ObjectRuleOptions = {},
): ValidationFinding[] {
  if (!isRecord(object)) return [];
  const version = { karpenterVersion: options.karpenterVersion };
  if (object.apiVersion === 'karpenter.sh/v1' && object.kind === 'NodePool') {
    return [
      ...checkKarpenterLabels(object, version),
      ...checkNodePoolRules(object, version),
    ];
  }
  if (
    object.apiVersion === 'karpenter.sh/v1alpha1' &&
    object.kind === 'NodeOverlay'
  ) {
    return checkKarpenterLabels(object, version);
  }
  return [];
}
