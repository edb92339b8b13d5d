/**
 * Static pools in the repository: an NFD NodeFeatureRule is a GPU pool of
 * the product's when it carries the pool annotations (`<labelDomain>/sharing-mode`
 * ...), as a NodePool does; its first rule's `labels` and `taints` are what
 * its nodes get, its `system.name` `nodename` list the nodes it holds (when
 * it chooses nodes by name). A NodeFeatureRule without our annotations is
 * someone else's and is never touched.
 */
import { WELL_KNOWN_KEYS } from '@gpu-gitops/plugin-gpu-common';
import { findOurLabel } from './poolLabels';
import { hasPoolAnnotations } from './productPools';
import { getIn, isPlainObject, PlainObject, stringRecord } from './yamlObjects';

export const NODE_FEATURE_RULE = 'NodeFeatureRule';

/** True when a NodeFeatureRule carries our pool annotations. */
export function isGpuNodeFeatureRule(rule: unknown): boolean {
  return hasPoolAnnotations(rule);
}

/** The pool's rule: the first of `spec.rules`. */
function firstRule(rule: unknown): unknown {
  const rules = getIn(rule, 'spec', 'rules');
  return Array.isArray(rules) ? rules[0] : undefined;
}

/** The `nodename` list of the rule's `system.name` match, when it matches nodes by name. */
export function ruleNodeNames(rule: unknown): string[] | undefined {
  const features = getIn(firstRule(rule), 'matchFeatures');
  if (!Array.isArray(features)) return undefined;
  const byName = features.find(
    f => isPlainObject(f) && f.feature === 'system.name',
  );
  const value = getIn(byName, 'matchExpressions', 'nodename', 'value');
  return Array.isArray(value) ? value.map(String).sort() : undefined;
}

/** The labels a NodeFeatureRule puts on its nodes. */
export function ruleNodeLabels(rule: unknown): Record<string, string> {
  return stringRecord(getIn(firstRule(rule), 'labels'));
}

/** The taints a NodeFeatureRule puts on its nodes (with nfd-master `enableTaints`). */
export function ruleTaints(rule: unknown): unknown {
  return getIn(firstRule(rule), 'taints');
}

/**
 * A static pool read as the NodePool it stands for (the readers of pools and
 * the validation rules take it as one): its annotations and labels, its
 * nodes' labels and taints from the rule, its machine (annotation
 * `<labelDomain>/machine`) as the one instance type, on-demand.
 */
export function nodeFeatureRuleAsNodePool<T extends PlainObject>(rule: T): T {
  const machine = findOurLabel(
    stringRecord(getIn(rule, 'metadata', 'annotations')),
    ['machine'],
  );
  const taints = ruleTaints(rule);
  return {
    ...rule,
    kind: NODE_FEATURE_RULE,
    spec: {
      template: {
        metadata: { labels: ruleNodeLabels(rule) },
        spec: {
          requirements: [
            ...(machine
              ? [
                  {
                    key: WELL_KNOWN_KEYS.instanceType,
                    operator: 'In',
                    values: [machine],
                  },
                ]
              : []),
            {
              key: WELL_KNOWN_KEYS.karpenterCapacityType,
              operator: 'In',
              values: ['on-demand'],
            },
          ],
          ...(Array.isArray(taints) ? { taints } : {}),
        },
      },
    },
  };
}
