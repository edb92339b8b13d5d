import { parseKarpenterVersion } from '../cluster/karpenterVersion';
import { isRecord, joinPath, type ValidationFinding } from './finding';

/**
 * The CEL rules Karpenter's CRDs apply to label keys (the
 * `x-kubernetes-validations` of aws/karpenter-provider-aws v1.14.1
 * `pkg/apis/crds/karpenter.sh_nodepools.yaml` and
 * `karpenter.sh_nodeoverlays.yaml`), re-implemented because JSON schemas
 * (and so kubernetes-models) cannot express them; the API server rejects the
 * object.
 */

/** `x.find("^([^/]+)")`: everything before the first `/` (or the whole key). */
export function labelDomain(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? key : key.slice(0, slash);
}

const KARPENTER_SH_ALLOWED = [
  'karpenter.sh/capacity-type',
  'karpenter.sh/nodepool',
];

const AWS_INSTANCE_LABELS = [
  'karpenter.k8s.aws/ec2nodeclass',
  'karpenter.k8s.aws/instance-encryption-in-transit-supported',
  'karpenter.k8s.aws/instance-category',
  'karpenter.k8s.aws/instance-hypervisor',
  'karpenter.k8s.aws/instance-family',
  'karpenter.k8s.aws/instance-generation',
  'karpenter.k8s.aws/instance-local-nvme',
  'karpenter.k8s.aws/instance-size',
  'karpenter.k8s.aws/instance-cpu',
  'karpenter.k8s.aws/instance-cpu-manufacturer',
  'karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz',
  'karpenter.k8s.aws/instance-memory',
  'karpenter.k8s.aws/instance-ebs-bandwidth',
  'karpenter.k8s.aws/instance-network-bandwidth',
  'karpenter.k8s.aws/instance-gpu-name',
  'karpenter.k8s.aws/instance-gpu-manufacturer',
  'karpenter.k8s.aws/instance-gpu-count',
  'karpenter.k8s.aws/instance-gpu-memory',
  'karpenter.k8s.aws/instance-accelerator-name',
  'karpenter.k8s.aws/instance-accelerator-manufacturer',
  'karpenter.k8s.aws/instance-accelerator-count',
  'karpenter.k8s.aws/instance-capability-flex',
];

/** NodePool allowlist: the NodeOverlay list plus tenancy, reservations, placement groups. */
const AWS_ALLOWED_NODEPOOL = [
  'karpenter.k8s.aws/instance-tenancy',
  'karpenter.k8s.aws/capacity-reservation-type',
  'karpenter.k8s.aws/capacity-reservation-id',
  'karpenter.k8s.aws/capacity-reservation-interruptible',
  ...AWS_INSTANCE_LABELS,
  'karpenter.k8s.aws/placement-group-id',
  'karpenter.k8s.aws/placement-group-partition',
];

/** Karpenter v1.0-v1.8 also restricted `kubernetes.io` / `k8s.io` keys. */
const LEGACY_KUBERNETES_IO_ALLOWED = [
  'beta.kubernetes.io/instance-type',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
  'failure-domain.beta.kubernetes.io/zone',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'node.kubernetes.io/windows-build',
];

/** Since v1.9.0 (core #2586) the `kubernetes.io` / `k8s.io` rules are gone. */
function hasLegacyKubernetesRules(version: string | undefined): boolean {
  if (version === undefined) return false;
  const parsed = parseKarpenterVersion(version);
  if (!parsed) return false;
  return parsed[0] < 1 || (parsed[0] === 1 && parsed[1] < 9);
}

type Place = 'template-label' | 'requirement' | 'overlay-requirement';

function checkKey(
  key: string,
  place: Place,
  path: string,
  legacy: boolean,
): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  const domain = labelDomain(key);
  const where =
    place === 'template-label' ? 'template label' : 'requirement key';
  if (!KARPENTER_SH_ALLOWED.includes(key) && domain.endsWith('karpenter.sh')) {
    findings.push({
      path,
      rule: 'karpenter-restricted-domain',
      message: `${where} "${key}": label domain "karpenter.sh" is restricted (only karpenter.sh/capacity-type and karpenter.sh/nodepool are allowed)`,
    });
  }
  if (key === 'karpenter.sh/nodepool' && place !== 'overlay-requirement') {
    findings.push({
      path,
      rule: 'karpenter-restricted-label',
      message: `${where} "${key}": label "karpenter.sh/nodepool" is restricted; Karpenter sets it itself`,
    });
  }
  if (key === 'kubernetes.io/hostname') {
    findings.push({
      path,
      rule: 'karpenter-restricted-label',
      message: `${where} "${key}": label "kubernetes.io/hostname" is restricted`,
    });
  }
  const awsAllowed =
    place === 'overlay-requirement'
      ? AWS_INSTANCE_LABELS
      : AWS_ALLOWED_NODEPOOL;
  if (!awsAllowed.includes(key) && domain.endsWith('karpenter.k8s.aws')) {
    findings.push({
      path,
      rule: 'karpenter-restricted-domain',
      message: `${where} "${key}": label domain "karpenter.k8s.aws" is restricted to Karpenter's well-known instance labels`,
    });
  }
  if (legacy && place !== 'overlay-requirement') {
    const allowed =
      place === 'requirement'
        ? [...LEGACY_KUBERNETES_IO_ALLOWED, 'node.kubernetes.io/instance-type']
        : LEGACY_KUBERNETES_IO_ALLOWED;
    if (
      !allowed.includes(key) &&
      !domain.endsWith('node.kubernetes.io') &&
      !domain.endsWith('node-restriction.kubernetes.io') &&
      domain.endsWith('kubernetes.io')
    ) {
      findings.push({
        path,
        rule: 'karpenter-restricted-domain',
        message: `${where} "${key}": label domain "kubernetes.io" is restricted before Karpenter v1.9`,
      });
    }
    if (!domain.endsWith('kops.k8s.io') && domain.endsWith('k8s.io')) {
      findings.push({
        path,
        rule: 'karpenter-restricted-domain',
        message: `${where} "${key}": label domain "k8s.io" is restricted before Karpenter v1.9`,
      });
    }
  }
  return findings;
}

/** @public */
export interface KarpenterLabelOptions {
  /** Cluster's Karpenter version; versions below 1.9 add the legacy rules. */
  karpenterVersion?: string;
}

/**
 * Restricted label keys in a NodePool (template labels and requirement keys)
 * or a NodeOverlay (requirement keys; `karpenter.sh/nodepool` is allowed
 * there, and its `karpenter.k8s.aws` allowlist is shorter). Other kinds have
 * no such rules and yield no findings.
 *
 * @public
 */
export function checkKarpenterLabels(
  object: unknown,
  options: KarpenterLabelOptions = {},
): ValidationFinding[] {
  if (!isRecord(object) || !isRecord(object.spec)) return [];
  const legacy = hasLegacyKubernetesRules(options.karpenterVersion);
  const findings: ValidationFinding[] = [];
  const checkRequirements = (
    requirements: unknown,
    path: string,
    place: Place,
  ) => {
    if (!Array.isArray(requirements)) return;
    requirements.forEach((requirement, index) => {
      if (isRecord(requirement) && typeof requirement.key === 'string') {
        findings.push(
          ...checkKey(
            requirement.key,
            place,
            joinPath(path, index, 'key'),
            legacy,
          ),
        );
      }
    });
  };

  if (object.kind === 'NodePool') {
    const template = isRecord(object.spec.template) ? object.spec.template : {};
    const metadata = isRecord(template.metadata) ? template.metadata : {};
    const labels = isRecord(metadata.labels) ? metadata.labels : {};
    for (const key of Object.keys(labels)) {
      findings.push(
        ...checkKey(
          key,
          'template-label',
          `spec.template.metadata.labels["${key}"]`,
          legacy,
        ),
      );
    }
    const spec = isRecord(template.spec) ? template.spec : {};
    checkRequirements(
      spec.requirements,
      'spec.template.spec.requirements',
      'requirement',
    );
  } else if (object.kind === 'NodeOverlay') {
    checkRequirements(
      object.spec.requirements,
      'spec.requirements',
      'overlay-requirement',
    );
  }
  return findings;
}
