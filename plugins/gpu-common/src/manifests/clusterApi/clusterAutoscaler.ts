import type { InstanceType } from '../../catalog/types';
import type { Plan } from '../../planner/types';
import { WHOLE_GPU_RESOURCE } from '../../planner/modeDecision';
import { nodeLabelsArg, poolTaints } from './kubeadmConfigTemplate';

/**
 * Annotations the Cluster API cluster autoscaler reads on a MachineDeployment
 * (kubernetes/autoscaler `cluster-autoscaler/cloudprovider/clusterapi/`
 * README.md and `clusterapi_utils.go`): its size bounds, and the capacity of
 * a node it has not seen yet (scale from zero needs at least cpu and memory).
 */
export const CLUSTER_AUTOSCALER_KEYS = {
  minSize: 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size',
  maxSize: 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size',
  cpu: 'capacity.cluster-autoscaler.kubernetes.io/cpu',
  memory: 'capacity.cluster-autoscaler.kubernetes.io/memory',
  gpuType: 'capacity.cluster-autoscaler.kubernetes.io/gpu-type',
  gpuCount: 'capacity.cluster-autoscaler.kubernetes.io/gpu-count',
  labels: 'capacity.cluster-autoscaler.kubernetes.io/labels',
  taints: 'capacity.cluster-autoscaler.kubernetes.io/taints',
} as const;

/**
 * The autoscaler's annotations of a pool: from zero up to the nodes its
 * ledger needs (the bound Karpenter's limit sets elsewhere), and a node's
 * capacity as the catalog machine has it. The capacity can only declare
 * whole `nvidia.com/gpu` devices (`gpu-type`, `gpu-count`): pools whose pods
 * ask for a renamed resource are refused before this
 * (cluster/capabilities.ts, `cluster-autoscaler-renamed-resource`).
 * `gpu-count` is what a node advertises: its GPUs, or its MIG instances
 * under the single strategy.
 */
export function clusterAutoscalerAnnotations(
  plan: Plan,
  machine: InstanceType,
): Record<string, string> {
  return {
    [CLUSTER_AUTOSCALER_KEYS.minSize]: '0',
    [CLUSTER_AUTOSCALER_KEYS.maxSize]: String(plan.nodes.expected),
    [CLUSTER_AUTOSCALER_KEYS.cpu]: String(machine.vcpu),
    [CLUSTER_AUTOSCALER_KEYS.memory]: `${machine.memoryMiB}Mi`,
    [CLUSTER_AUTOSCALER_KEYS.gpuType]: WHOLE_GPU_RESOURCE,
    [CLUSTER_AUTOSCALER_KEYS.gpuCount]: String(plan.nodes.slicesPerNode),
    [CLUSTER_AUTOSCALER_KEYS.labels]: nodeLabelsArg(plan.pool.labels),
    [CLUSTER_AUTOSCALER_KEYS.taints]: poolTaints(plan)
      .map(t => `${t.key}=${t.value}:${t.effect}`)
      .join(','),
  };
}
