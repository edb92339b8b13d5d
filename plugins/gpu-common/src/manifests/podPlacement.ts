import type { ClusterProfile } from '../cluster/types';
import type { Plan, Taint } from '../planner/types';
import { poolNodeLabel } from '../providers/poolNodeLabel';
import { gpuAnnotationKeys } from './metadataKeys';
import { quantity } from './quantity';
import { gpuSchedulerName } from '../scheduling/binPackingScheduler';

/**
 *  The pod-template parts every GPU workload (new or patched) gets.
 *
 * @public
 */
export interface PodPlacement {
  nodeSelector: Record<string, string>;
  tolerations: {
    key: string;
    operator: 'Equal';
    value: string;
    effect: Taint['effect'];
  }[];
  annotations: Record<string, string>;
  /** `resources.limits` of the GPU container; empty for DRA (claims instead). */
  limits: Record<string, string>;
  /** The bin-packing scheduler's name when the profile opts in (`binPackingScheduler.ts`). */
  schedulerName?: string;
}

/**
 * Name of the pod-level resource claim (DRA) and of its container reference.
 *
 * @public
 */
export const DRA_CLAIM_NAME = 'gpu';

/**
 * Pins pods to the plan's pool by the label its provider's nodes carry
 * (`providers/poolNodeLabel.ts`: Karpenter's `karpenter.sh/nodepool`, known
 * before launch; the product's `<labelDomain>/pool` on Cluster API and
 * static nodes) and tolerates exactly
 * the pool's taint. GFD labels are not used: Karpenter cannot know them before
 * a node exists. Extended resources go in `limits` only; Kubernetes defaults
 * `requests` to the same value.
 *
 * @public
 */
export function podPlacement(
  plan: Plan,
  cluster: ClusterProfile,
): PodPlacement {
  const keys = gpuAnnotationKeys(cluster.labelDomain);
  const { taint } = plan.pool;
  const schedulerName = gpuSchedulerName(cluster);
  return {
    ...(schedulerName ? { schedulerName } : {}),
    nodeSelector: { [poolNodeLabel(cluster)]: plan.pool.name },
    tolerations: [taint, ...(plan.pool.otherTaints ?? [])].map(t => ({
      key: t.key,
      operator: 'Equal' as const,
      value: t.value,
      effect: t.effect,
    })),
    annotations: {
      [keys.request]: `${plan.request.metadata.namespace}/${plan.request.metadata.name}`,
      [keys.pool]: plan.pool.name,
      [keys.sharingMode]: plan.sharing.mode,
    },
    limits:
      plan.sharing.mode === 'dra'
        ? {}
        : { [plan.resourceName]: quantity(plan.resourcePerReplica) },
  };
}
