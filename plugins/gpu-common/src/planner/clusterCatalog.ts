import type { GpuCatalog } from '../catalog/types';
import { autoModeCatalog } from '../cluster/eksAutoMode';
import type { ClusterProfile } from '../cluster/types';
import { gkePartitionCatalog } from './gkePartitions';
import { inventoryCatalog } from './staticInventory';

/**
 * The machines a cluster can get, of the catalog: a static inventory's
 * (staticInventory.ts), the EC2 types EKS Auto Mode launches
 * (cluster/eksAutoMode.ts), the MIG partitions GKE creates
 * (gkePartitions.ts), else the whole catalog. The planner and the
 * form's choices read it, so the form never offers what the planner refuses.
 */
export function clusterCatalog(
  catalog: GpuCatalog,
  cluster: ClusterProfile,
): GpuCatalog {
  return gkePartitionCatalog(
    autoModeCatalog(inventoryCatalog(catalog, cluster), cluster),
    cluster,
  );
}
