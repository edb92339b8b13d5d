import { buildEc2NodeClass } from '../manifests/ec2NodeClass';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { NodeSelectorRequirement } from '../manifests/nodePool';
import type { KarpenterMachines } from './types';

/**
 * Arm64 EC2 families carry a `g` after the generation (`g5g`, `c7g`) or are
 * Grace-based (`p6e-gb200`); everything else that carries NVIDIA GPUs is amd64.
 */
export function ec2Architecture(instanceType: string): 'amd64' | 'arm64' {
  const family = instanceType.split('.')[0];
  return /^[a-z]+\d+[a-z]*g$/.test(family) || /-gb\d+/.test(family)
    ? 'arm64'
    : 'amd64';
}

/**
 * EC2 through Karpenter's AWS provider. The GPU name / manufacturer
 * requirements guard the pinned instance types (e.g. against AMD `g4ad`
 * picking the NVIDIA AMI: any instance type with a GPU gets it,
 * aws/karpenter-provider-aws v1.14.1 `pkg/providers/amifamily/types.go`).
 */
export const awsMachines: KarpenterMachines = {
  gpuCountLabel: 'karpenter.k8s.aws/instance-gpu-count',
  nodeClass: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' },
  gpuRequirements(plan) {
    const requirements: NodeSelectorRequirement[] = [
      {
        key: 'karpenter.k8s.aws/instance-gpu-manufacturer',
        operator: 'In',
        values: ['nvidia'],
      },
    ];
    if (plan.pool.karpenterGpuNames.length > 0) {
      requirements.push({
        key: WELL_KNOWN_KEYS.karpenterInstanceGpuName,
        operator: 'In',
        values: [...new Set(plan.pool.karpenterGpuNames)].sort(),
      });
    }
    return requirements;
  },
  architectures: instanceTypes => instanceTypes.map(ec2Architecture),
  buildNodeClass: buildEc2NodeClass,
};
