/**
 * A legacy pool's kubelet settings as v1 takes them on the EC2NodeClass
 * (`spec.kubelet`). `containerRuntime` was dropped in v1beta1 (containerd is
 * the only runtime EKS 1.24+ runs: `website/content/en/v1.0/upgrading/`
 * `v1beta1-migration.md`, "Provisioner -> NodePool"); every other field keeps
 * its name (`NewKubeletConfiguration`, `pkg/utils/nodepool/nodepool.go`,
 * kubernetes-sigs/karpenter v0.32.10).
 */
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';
import { copy } from './fieldReader';
import type { ImportFinding } from './findings';

export function v1KubeletFields(
  value: unknown,
  field: string,
  object: string,
): { kubelet?: PlainObject; findings: ImportFinding[] } {
  if (!isPlainObject(value)) return { findings: [] };
  const { containerRuntime, ...rest } = copy(value);
  const findings: ImportFinding[] =
    containerRuntime === undefined
      ? []
      : [
          {
            kind: 'no-v1-equivalent',
            object,
            field: `${field}.containerRuntime`,
            value: containerRuntime,
            message:
              'kubelet containerRuntime was dropped in Karpenter v1beta1: nodes run containerd',
          },
        ];
  return {
    ...(Object.keys(rest).length > 0 ? { kubelet: rest } : {}),
    findings,
  };
}
