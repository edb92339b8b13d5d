import { buildEc2NodeClass } from '../manifests/ec2NodeClass';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import type { InstanceType } from '../catalog/types';
import type { KarpenterMachines } from './types';

/**
 * EC2's NVIDIA GPU families: the G and P families of "Accelerated
 * computing" (g4dn, g5, g5g, g6, g6e, gr6, p3, p4d, p5, p6-b200...), but
 * `g4ad` (AMD Radeon). Inf, Trn, DL and F families carry other
 * accelerators.
 */
function isEc2GpuFamily(family: string): boolean {
  return /^(g|gr|p)\d/.test(family) && family !== 'g4ad';
}

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

const awsGpuCountLabel = 'karpenter.k8s.aws/instance-gpu-count';

/** Category and generation of an EC2 type, as the provider parses its name (`g4dn.xlarge`: `g`, `4`). */
const INSTANCE_TYPE_SCHEME = /^([a-z]+)(-[0-9]+tb)?([0-9]+).*\./;

/**
 * The labels Karpenter's AWS provider derives from an EC2 type's name alone
 * (aws/karpenter-provider-aws v1.14.1 `pkg/providers/instancetype/types.go`
 * `computeRequirements`: family and size split at the dot, category and
 * generation parsed from the family), so they are known for a pool that
 * names its instance types even without the catalog.
 */
export function ec2NameLabels(name: string): Record<string, string> {
  const [family, size] = name.split('.');
  const scheme = INSTANCE_TYPE_SCHEME.exec(name);
  const labels: Record<string, string> = {
    [WELL_KNOWN_KEYS.instanceType]: name,
    'kubernetes.io/arch': ec2Architecture(name),
    'karpenter.k8s.aws/instance-family': family,
  };
  if (size !== undefined) labels['karpenter.k8s.aws/instance-size'] = size;
  if (scheme) {
    labels['karpenter.k8s.aws/instance-category'] = scheme[1];
    labels['karpenter.k8s.aws/instance-generation'] = scheme[3];
  }
  return labels;
}

/**
 * The labels Karpenter's AWS provider gives an EC2 type that the catalog
 * knows the value of (same source: memory in MiB, GPU memory per GPU in MiB,
 * the GPU labels only for one GPU model), its name's among them.
 */
export function ec2MachineLabels(type: InstanceType): Record<string, string> {
  const labels: Record<string, string> = {
    ...ec2NameLabels(type.name),
    'karpenter.k8s.aws/instance-cpu': String(type.vcpu),
    'karpenter.k8s.aws/instance-memory': String(type.memoryMiB),
    'karpenter.k8s.aws/instance-gpu-manufacturer': 'nvidia',
    [awsGpuCountLabel]: String(type.gpusPerNode),
    'karpenter.k8s.aws/instance-gpu-memory': String(type.gpuMemoryMiB),
  };
  if (type.karpenterGpuName) {
    labels[WELL_KNOWN_KEYS.karpenterInstanceGpuName] = type.karpenterGpuName;
  }
  return labels;
}

/**
 * EC2 through Karpenter's AWS provider. The GPU name / manufacturer
 * requirements guard the pinned instance types (e.g. against AMD `g4ad`
 * picking the NVIDIA AMI: any instance type with a GPU gets it,
 * aws/karpenter-provider-aws v1.14.1 `pkg/providers/amifamily/types.go`).
 */
export const awsMachines: KarpenterMachines = {
  gpuCountLabel: awsGpuCountLabel,
  nodeClass: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' },
  // Labels of aws/karpenter-provider-aws v1.14.1 `pkg/apis/v1/labels.go`.
  gpuLabels: {
    gpuKeys: [
      'karpenter.k8s.aws/instance-gpu-count',
      WELL_KNOWN_KEYS.karpenterInstanceGpuName,
      'karpenter.k8s.aws/instance-gpu-manufacturer',
      'karpenter.k8s.aws/instance-gpu-memory',
    ],
    machineKeys: {
      [WELL_KNOWN_KEYS.instanceType]: type =>
        isEc2GpuFamily(type.split('.')[0]),
      'karpenter.k8s.aws/instance-family': isEc2GpuFamily,
      'karpenter.k8s.aws/instance-category': category =>
        category === 'g' || category === 'p',
    },
    gpuNameKey: WELL_KNOWN_KEYS.karpenterInstanceGpuName,
    machineNameKeys: [WELL_KNOWN_KEYS.instanceType],
    modelsNamed: (gpuName, catalog) =>
      catalog.instanceTypes
        .filter(t => t.provider === 'aws' && t.karpenterGpuName === gpuName)
        .map(t => t.gpuModel),
  },
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
  machineLabels: ec2MachineLabels,
  architectures: instanceTypes => instanceTypes.map(ec2Architecture),
  buildNodeClass: buildEc2NodeClass,
};
