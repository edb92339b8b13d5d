/**
 * The labels the nodes of a plan's pool carry, as `contradictingSelectors.ts`
 * reads them. An interim reader for the workload patch: the scheduling model
 * (gpu-common `scheduling/`) describes every pool of a built cluster and is
 * where this should come from once it lands.
 *
 * - a reused pool: its labels as its file has them (`PoolPlan.nodeLabels`: a
 *   hand-written NodePool's template labels and requirements);
 * - every provider: the pool's own labels (`plan.pool.labels`: Karpenter
 *   template labels, Cluster API kubelet `node-labels`, the NodeFeatureRule's
 *   labels, `<labelDomain>/pool` among them) and the kubelet's own labels
 *   (`kubernetes.io/os`, `-/arch`, `-/hostname`, the zone and region);
 * - Karpenter: `karpenter.sh/nodepool`, each requirement key with its allowed
 *   values, the values the allowed instance types imply (family and size on
 *   AWS), and the provider's other well-known labels with values that cannot
 *   be told before launch (kubernetes-sigs/karpenter v1.14 pkg/apis/v1/
 *   labels.go, karpenter-provider-aws pkg/apis/v1/labels.go,
 *   karpenter-provider-azure pkg/apis/v1beta1/labels.go). GPU Feature
 *   Discovery labels (`nvidia.com/gpu.present`) are not among them: they come
 *   once the node runs, and Karpenter never launches a node for a pod that
 *   selects a label it cannot know;
 * - Cluster API and static nodes: GPU Feature Discovery and NFD's PCI labels,
 *   which the GPU Operator puts on nodes that exist before their pods run.
 */
import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import { poolProviderOf } from '../providers/poolProviders';
import { RUNNING_GPU_NODE_LABELS } from '../scheduling/runningGpuNodeLabels';
import type { NodeLabelValues } from './contradictingSelectors';
import { WELL_KNOWN_KEYS } from './metadataKeys';
import { nodePoolRequirements } from './nodePool';

const KUBELET_LABELS: NodeLabelValues = {
  'kubernetes.io/os': ['linux'],
  'kubernetes.io/arch': 'any',
  // Deprecated, still set by the kubelet (k8s.io/kubelet pkg/apis/well_known_labels.go, v1.31).
  'beta.kubernetes.io/os': ['linux'],
  'beta.kubernetes.io/arch': 'any',
  'kubernetes.io/hostname': 'any',
  'topology.kubernetes.io/zone': 'any',
  'topology.kubernetes.io/region': 'any',
  [WELL_KNOWN_KEYS.instanceType]: 'any',
};

const KARPENTER_PROVIDER_LABELS: Record<string, string[]> = {
  'karpenter.k8s.aws': [
    'instance-category',
    'instance-generation',
    'instance-hypervisor',
    'instance-cpu',
    'instance-cpu-manufacturer',
    'instance-memory',
    'instance-local-nvme',
    'instance-network-bandwidth',
    'instance-ebs-bandwidth',
    'instance-gpu-name',
    'instance-gpu-manufacturer',
    'instance-gpu-count',
    'instance-gpu-memory',
    'instance-tenancy',
    'ec2nodeclass',
  ],
  'karpenter.azure.com': [
    'sku-name',
    'sku-family',
    'sku-version',
    'sku-cpu',
    'sku-memory',
    'sku-gpu-name',
    'sku-gpu-manufacturer',
    'sku-gpu-count',
    'sku-networking-accelerated',
    'sku-storage-premium-capable',
    'sku-storage-ephemeralos-maxsize',
  ],
};

/** `g5.xlarge` → family `g5`, size `xlarge` (EC2's instance type names). */
function awsInstanceLabels(instanceTypes: readonly string[]): NodeLabelValues {
  const parts = instanceTypes.map(t => t.split('.'));
  return {
    'karpenter.k8s.aws/instance-family': [...new Set(parts.map(p => p[0]))],
    'karpenter.k8s.aws/instance-size': [
      ...new Set(parts.map(p => p.slice(1).join('.'))),
    ],
  };
}

function karpenterLabels(plan: Plan, cluster: ClusterProfile): NodeLabelValues {
  const machines = poolProviderOf(cluster).karpenter!;
  const domain = machines.gpuCountLabel.split('/')[0];
  const labels: NodeLabelValues = {
    [WELL_KNOWN_KEYS.karpenterNodePool]: [plan.pool.name],
    [WELL_KNOWN_KEYS.karpenterCapacityType]: 'any',
  };
  for (const suffix of KARPENTER_PROVIDER_LABELS[domain] ?? []) {
    labels[`${domain}/${suffix}`] = 'any';
  }
  if (domain === 'karpenter.k8s.aws') {
    labels['topology.k8s.aws/zone-id'] = 'any';
    Object.assign(labels, awsInstanceLabels(plan.pool.instanceTypes));
  }
  for (const requirement of nodePoolRequirements(plan, cluster)) {
    if (requirement.operator === 'In' && requirement.values) {
      labels[requirement.key] = requirement.values;
    }
  }
  return labels;
}

/** The labels the nodes of the plan's pool carry (see the file's comment). */
export function poolNodeLabels(
  plan: Plan,
  cluster: ClusterProfile,
): NodeLabelValues {
  const provider = poolProviderOf(cluster);
  const launched = provider.karpenter
    ? karpenterLabels(plan, cluster)
    : RUNNING_GPU_NODE_LABELS;
  const own: NodeLabelValues = Object.fromEntries(
    Object.entries(plan.pool.labels).map(([k, v]) => [k, [v]]),
  );
  return { ...KUBELET_LABELS, ...launched, ...plan.pool.nodeLabels, ...own };
}
