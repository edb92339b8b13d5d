/**
 * The one landing model every reader builds of a cluster: where its GPU pods
 * can land. `readRepoState`, the import, the allocation index, `validate`
 * and `verify` each used to assemble their own list of places (the pools
 * only, or the pools and the team's own GPU nodes), so the same selector-less
 * workload was "on the team's NodePool" for one and "unserved" or adopted
 * onto a product pool for another. Each now hands the cluster's parts here.
 */
import { landingModel, type LandingModel } from './landingModel';
import type { NodeOverlayLike } from './nodeOverlays';
import type { PoolNodeShape } from './nodeShape';
import { withOverlaidResources } from './overlaidShapes';
import { withUnpooledGpuNodes } from './unpooledGpuNodes';

/**
 * What a reader found of one cluster's GPU nodes.
 *
 * @public
 */
export interface ClusterGpuNodes {
  /** The product's pools (written by a request or adopted by the import) as node shapes. */
  pools: readonly PoolNodeShape[];
  /** The team's own GPU NodePools, as node shapes: pods land there, nothing is counted. */
  handWritten?: readonly PoolNodeShape[];
  /** The cluster's objects: its own NodeFeatureRules label GPU servers where no NodePool launches nodes. */
  objects?: readonly unknown[];
  /**
   * The cluster's NodeOverlays, the team's and the product's: the resources
   * their `capacity` adds to the NodePools they reach (`overlaidShapes.ts`).
   */
  overlays?: readonly NodeOverlayLike[];
}

/**
 * The landing model of one cluster: its pools beside its unpooled GPU nodes
 * (`withUnpooledGpuNodes`), each NodePool's nodes with the resources the
 * cluster's NodeOverlays add (`withOverlaidResources`). The allocation index, which lands every
 * workload among every indexed cluster's nodes, joins the clusters' models'
 * shapes: a NodePool of one cluster never hides another's GPU servers.
 *
 * @public
 */
export function clusterLandingModel(cluster: ClusterGpuNodes): LandingModel {
  return landingModel(
    withOverlaidResources(
      withUnpooledGpuNodes(
        cluster.pools,
        cluster.objects ?? [],
        cluster.handWritten,
      ),
      cluster.overlays ?? [],
    ),
  );
}
