import { formatLedger } from '../capacity/ledger';
import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import { gpuAnnotationKeys } from './metadataKeys';

/**
 * What a pool object (a Karpenter NodePool, a Cluster API MachineDeployment)
 * says about its pool: model, sharing, resource, slices or MIG profile, the
 * request ledger and the limit floor. The repository reader finds pools and
 * their ledgers through these keys, whatever the pool's kind.
 */
export function poolAnnotations(
  plan: Plan,
  cluster: Pick<ClusterProfile, 'labelDomain'>,
): Record<string, string> {
  const keys = gpuAnnotationKeys(cluster.labelDomain);
  const annotations: Record<string, string> = {
    [keys.gpuModel]: plan.pool.gpuModel,
    [keys.sharingMode]: plan.sharing.mode,
    [keys.resourceName]: plan.resourceName,
  };
  if (plan.sharing.slicesPerGpu !== undefined) {
    annotations[keys.slicesPerGpu] = String(plan.sharing.slicesPerGpu);
  }
  if (plan.sharing.migProfile !== undefined) {
    annotations[keys.migProfile] = plan.sharing.migProfile;
  }
  // The pool's size is derived from this line (see capacity/ledger.ts).
  if (plan.pool.ledger.length > 0) {
    annotations[keys.requests] = formatLedger(plan.pool.ledger);
  }
  if (plan.pool.limitFloor !== undefined) {
    annotations[keys.limitFloor] = String(plan.pool.limitFloor);
  }
  return annotations;
}
