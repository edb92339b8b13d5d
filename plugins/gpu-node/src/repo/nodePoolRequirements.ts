import type { NodeSelectorRequirement } from '@gpu-gitops/plugin-gpu-common';
import { isPlainObject } from './yamlObjects';

const OPERATORS: ReadonlySet<string> = new Set([
  'In',
  'NotIn',
  'Exists',
  'DoesNotExist',
  'Gt',
  'Lt',
  'Gte',
  'Lte',
]);

/**
 * A NodePool's `spec.template.spec.requirements` as Karpenter reads them,
 * for the repository readers and `validate` alike (entries its schema would
 * refuse left out). Its template labels are requirements for Karpenter too,
 * but none of them is a machine label the catalog knows.
 */
export function nodePoolRequirements(
  requirements: unknown,
): NodeSelectorRequirement[] {
  return (Array.isArray(requirements) ? requirements : [])
    .filter(isPlainObject)
    .filter(r => typeof r.key === 'string' && OPERATORS.has(String(r.operator)))
    .map(r => ({
      key: String(r.key),
      operator: r.operator as NodeSelectorRequirement['operator'],
      ...(Array.isArray(r.values) ? { values: r.values.map(String) } : {}),
    }));
}
