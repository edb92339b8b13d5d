/**
 * Static pools with a node inventory: the pool is an NFD NodeFeatureRule,
 * named after the pool, whose rule gives the nodes it names (Git's
 * `nodeNames`: the `system.name` `nodename` list) the pool's labels and
 * taint. nfd-master applies a rule to the nodes whose features an
 * nfd-worker reports (kubernetes-sigs/node-feature-discovery v0.19.0
 * `docs/usage/custom-resources.md`), so a named node without the pool
 * label is absent, unreported, or not yet labelled.
 */
import type { V1Node } from '@kubernetes/client-node';
import {
  poolNodeLabel,
  type ClusterProfile,
  type DriftFinding,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import { ageMs, lastWrittenAt, minutes } from './driftTime';
import { missingFromCluster } from './poolObjectPresence';
import type { NodeFeatureRuleObject } from './readClusterObjects';

/**
 * Each node Git's rule names that does not carry the pool label with the
 * pool's name, once the rule was last written longer ago than the grace
 * period (a node just added to the list is labelled within seconds).
 */
function namedNodeFindings(
  pool: PoolState,
  rule: NodeFeatureRuleObject,
  nodesByName: Map<string, V1Node>,
  options: { profile: ClusterProfile; now: Date; graceMs: number },
): DriftFinding[] {
  const written = ageMs(lastWrittenAt(rule.metadata), options.now);
  if (written <= options.graceMs) return [];
  const label = poolNodeLabel(options.profile);
  return (pool.nodeNames ?? []).flatMap(name => {
    const node = nodesByName.get(name);
    const value = node?.metadata?.labels?.[label];
    if (value === pool.name) return [];
    return [
      {
        kind: 'nodefeaturerule-node-unlabeled' as const,
        object: `Node/${name}`,
        message: node
          ? `node ${name}, which NodeFeatureRule ${pool.name} names, carries ${label}=${value}: another rule, or a hand-set label, gives it to pool ${value}`
          : `node ${name}, which NodeFeatureRule ${pool.name} names, has no ${label}=${pool.name} ${minutes(written)} after the rule was written: the node is not in the cluster, or nfd-master has not applied the rule to it (no nfd-worker reports its features?); pods of the pool are not placed on it`,
      },
    ];
  });
}

/**
 * The pool's NodeFeatureRule: the API absent (`rules` undefined), the rule
 * absent, or a node it names not labelled for the pool.
 */
export function nodeFeatureRuleFindings(
  pool: PoolState,
  rules: Map<string, NodeFeatureRuleObject> | undefined,
  nodesByName: Map<string, V1Node>,
  options: { profile: ClusterProfile; now: Date; graceMs: number },
): DriftFinding[] {
  if (!rules) {
    return [
      {
        kind: 'nodefeaturerule-missing',
        object: `NodeFeatureRule/${pool.name}`,
        message:
          "the cluster serves no NodeFeatureRule API (nfd.k8s-sigs.io/v1alpha1): Node Feature Discovery (the GPU Operator's subchart) is not installed, so nothing gives the pool's nodes its labels and taint",
      },
    ];
  }
  const rule = rules.get(pool.name);
  if (!rule) return [missingFromCluster('NodeFeatureRule', pool)];
  return namedNodeFindings(pool, rule, nodesByName, options);
}
