/**
 * `karpenter.k8s.aws/v1beta1` EC2NodeClass → `karpenter.k8s.aws/v1`, as the
 * v1 conversion webhook does it (`EC2NodeClass.ConvertFrom`,
 * `pkg/apis/v1/ec2nodeclass_conversion.go`, aws/karpenter-provider-aws
 * v1.0.0): every field keeps its name and value, except `amiFamily` and
 * `amiSelectorTerms` (`amiSelection.ts`). The default IMDS hop limit went from
 * 2 to 1; the old one is written out (`metadataOptions.ts`). Both steps are
 * the AWSNodeTemplate converter's too (`ec2NodeClassLaunch.ts`).
 */
import type { PlainObject } from '../../repo/yamlObjects';
import { carriedMetadata, specOf, type Conversion } from './conversion';
import { ec2NodeClassLaunch } from './ec2NodeClassLaunch';
import { compact, copy, FieldReader } from './fieldReader';
import { objectLabel } from './findings';

/** Fields v1 has under the same name and meaning. */
const SAME_IN_V1 = [
  'subnetSelectorTerms',
  'securityGroupSelectorTerms',
  'role',
  'instanceProfile',
  'userData',
  'tags',
  'detailedMonitoring',
  'associatePublicIPAddress',
  'instanceStorePolicy',
  'context',
];

export function convertEc2NodeClassV1beta1(source: PlainObject): Conversion {
  const object = objectLabel(source);
  const { metadata, findings } = carriedMetadata(source);
  const spec = new FieldReader(specOf(source), 'spec', object);
  const terms = spec.take('amiSelectorTerms');
  const launch = ec2NodeClassLaunch(
    spec,
    Array.isArray(terms) ? copy(terms) : [],
    object,
  );
  if ('refused' in launch) return { refused: launch.refused, findings };
  const same = Object.fromEntries(
    SAME_IN_V1.map(key => [key, spec.take(key)]).map(([k, v]) => [
      k,
      v === undefined ? undefined : copy(v),
    ]),
  );
  const converted: PlainObject = {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata,
    spec: compact({ ...launch.ami, ...same, ...launch.devices }),
  };
  return {
    converted,
    findings: [
      ...findings,
      ...launch.findings,
      ...spec.untaken(
        field => `spec.${field} has no equivalent on a v1 EC2NodeClass`,
      ),
    ],
  };
}
