import type { PoolProvider } from './types';

/**
 * Nodes that exist already and that nothing provisions: the catalog's
 * `static` machines describe them. The product writes no pool object for
 * them; the device-plugin and MIG configs still apply through the nodes'
 * `nvidia.com/device-plugin.config` and `nvidia.com/mig.config` labels.
 */
export const staticNodesProvider: PoolProvider = {
  id: 'static',
  displayName: 'static nodes',
  machines: 'static',
  poolKind: 'NodePool',
  poolObjects: () => [],
};
