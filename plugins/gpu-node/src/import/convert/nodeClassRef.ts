/**
 * A legacy node class reference → v1 `nodeClassRef {group, kind, name}` (all
 * three required from v1.1: "NodeClassRef Requirements",
 * `website/content/en/v1.0/upgrading/v1-migration.md`). `apiVersion` becomes
 * its group; a missing group or kind takes the AWS provider's
 * (`karpenter.k8s.aws`, `EC2NodeClass`), as the v1 webhook does with its
 * default node class (`NodeClaimTemplate.convertFrom`,
 * `pkg/apis/v1/nodepool_conversion.go`, kubernetes-sigs/karpenter v1.0.0).
 * An AWSNodeTemplate becomes the EC2NodeClass of the same name.
 */
import { isPlainObject } from '../../repo/yamlObjects';

export const AWS_NODE_CLASS_GROUP = 'karpenter.k8s.aws';
export const AWS_NODE_CLASS_KIND = 'EC2NodeClass';

export function v1NodeClassRef(
  legacy: unknown,
): { group: string; kind: string; name: string } | undefined {
  if (!isPlainObject(legacy) || typeof legacy.name !== 'string') {
    return undefined;
  }
  const apiVersion =
    typeof legacy.apiVersion === 'string' ? legacy.apiVersion : '';
  const group = apiVersion.includes('/')
    ? apiVersion.split('/')[0]
    : AWS_NODE_CLASS_GROUP;
  const kind =
    typeof legacy.kind === 'string' && legacy.kind !== 'AWSNodeTemplate'
      ? legacy.kind
      : AWS_NODE_CLASS_KIND;
  return { group, kind, name: legacy.name };
}
