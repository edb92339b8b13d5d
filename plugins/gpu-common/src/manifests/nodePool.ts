import { draPoolIsStaticFor } from '../cluster/draAutoscaling';
import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import { karpenterMachinesOf } from '../providers/karpenterMachines';
import { MANAGED_BY, WELL_KNOWN_KEYS } from './metadataKeys';
import { poolAnnotations } from './poolAnnotations';
import { quantities, quantity } from './quantity';
import type { NodeSelectorRequirement } from './nodeSelectorRequirement';
import type { KubernetesObject } from './types';

/**
 * How long a GPU node may live before Karpenter replaces it. Karpenter's own
 * default (720h) is written out so reviewers see it and drift stays explicit.
 */
export const GPU_NODE_EXPIRE_AFTER = '720h';

function sorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

/**
 * The requirements of a GPU NodePool. Only the `In` operator is used, which
 * every Karpenter v1 release accepts (`Gte`/`Lte` need ≥ 1.9). Instance types
 * are pinned by name; the provider's GPU requirements come first as a second
 * guard, its architectures after the capacity types.
 */
export function nodePoolRequirements(
  plan: Plan,
  cluster: Pick<ClusterProfile, 'provider'>,
): NodeSelectorRequirement[] {
  const machines = karpenterMachinesOf(cluster);
  const requirements: NodeSelectorRequirement[] = [
    ...(machines?.gpuRequirements(plan) ?? []),
    {
      key: WELL_KNOWN_KEYS.instanceType,
      operator: 'In',
      values: sorted(plan.pool.instanceTypes),
    },
    {
      key: WELL_KNOWN_KEYS.karpenterCapacityType,
      operator: 'In',
      values: sorted(plan.pool.capacityTypes),
    },
  ];
  const architectures = machines?.architectures(plan.pool.instanceTypes);
  if (architectures) {
    requirements.push({
      key: 'kubernetes.io/arch',
      operator: 'In',
      values: sorted(architectures),
    });
  }
  requirements.push({
    key: 'kubernetes.io/os',
    operator: 'In',
    values: ['linux'],
  });
  const unsupported = machines?.unsupportedRequirementKeys ?? [];
  return requirements.filter(r => !unsupported.includes(r.key));
}

/**
 * NodePool `karpenter.sh/v1` for the plan's pool.
 *
 * DRA pools are static (`spec.replicas`) unless the cluster's Karpenter
 * launches nodes for claims (cluster/draAutoscaling.ts): up to v1.14 it skips
 * pods with resource claims, so it would never launch a node for them
 * (`--ignore-dra-requests` defaults to true, kubernetes-sigs/karpenter v1.14.1
 * `pkg/operator/options/options.go`).
 * A static pool admits only `limits.nodes`; its replicas follow the planned
 * `limits.nodes` (cumulative for a reused pool), else this plan's node count.
 */
export function buildNodePool(
  plan: Plan,
  cluster: ClusterProfile,
): KubernetesObject {
  const isStatic = draPoolIsStaticFor(
    { sharingMode: plan.sharing.mode, migProfile: plan.sharing.migProfile },
    cluster,
  );
  const annotations = poolAnnotations(plan, cluster);

  const spec: Record<string, unknown> = {
    template: {
      metadata: { labels: { ...plan.pool.labels } },
      spec: {
        nodeClassRef: {
          group: cluster.nodeClass.group,
          kind: cluster.nodeClass.kind,
          name: cluster.nodeClass.name,
        },
        requirements: nodePoolRequirements(plan, cluster),
        taints: [{ ...plan.pool.taint }],
        expireAfter: GPU_NODE_EXPIRE_AFTER,
      },
    },
    // consolidateAfter is required whenever disruption is written (v1 CRD).
    disruption: {
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      consolidateAfter: cluster.consolidateAfter,
    },
  };
  if (isStatic) {
    // A reused static pool's `limits.nodes` already counts every workload on
    // it; the node count of this request alone would shrink the pool.
    const nodes = plan.pool.limits.nodes ?? plan.nodes.expected;
    spec.replicas = nodes;
    spec.limits = { nodes: quantity(nodes) };
  } else {
    spec.limits = quantities(plan.pool.limits);
  }

  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: {
      name: plan.pool.name,
      labels: { [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY },
      annotations,
    },
    spec,
  };
}
