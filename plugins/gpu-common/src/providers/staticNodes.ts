import {
  buildNodeFeatureRule,
  NODE_FEATURE_RULE,
} from '../manifests/nodeFeatureRule';
import type { PoolProvider } from './types';

/**
 * Nodes that exist already and that nothing provisions: the catalog's
 * `static` machines describe them. With a node inventory (profile
 * `staticNodes`) a pool is an NFD NodeFeatureRule that labels and taints
 * the pool's nodes; without one nothing is written for a pool, and the
 * nodes' `nvidia.com/device-plugin.config` / `nvidia.com/mig.config` labels
 * and taint are the platform's to set.
 *
 * @public
 */
export const staticNodesProvider: PoolProvider = {
  id: 'static',
  displayName: 'static nodes',
  machines: 'static',
  poolKind: NODE_FEATURE_RULE.kind,
  poolObjects: (plan, cluster, catalog) =>
    cluster.staticNodes ? [buildNodeFeatureRule(plan, cluster, catalog)] : [],
};
