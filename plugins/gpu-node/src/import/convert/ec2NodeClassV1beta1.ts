/**
 * `karpenter.k8s.aws/v1beta1` EC2NodeClass → `karpenter.k8s.aws/v1`, as the
 * v1 conversion webhook does it (`EC2NodeClass.ConvertFrom`,
 * `pkg/apis/v1/ec2nodeclass_conversion.go`, aws/karpenter-provider-aws
 * v1.0.0): every field keeps its name and value, except `amiFamily` and
 * `amiSelectorTerms` (`amiSelection.ts`). The default IMDS hop limit went from
 * 2 to 1; the old one is written out (`metadataOptions.ts`).
 */
import type { PlainObject } from '../../repo/yamlObjects';
import { amiSelection } from './amiSelection';
import { carriedMetadata, specOf, type Conversion } from './conversion';
import { compact, copy, FieldReader } from './fieldReader';
import { objectLabel } from './findings';
import { metadataOptionsKeepingHopLimit } from './metadataOptions';

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
  const blockDeviceMappings = spec.take('blockDeviceMappings');
  const ami = amiSelection(
    String(spec.take('amiFamily') ?? 'AL2'),
    Array.isArray(terms) ? copy(terms) : [],
    Array.isArray(blockDeviceMappings),
    object,
  );
  if ('refused' in ami) return { refused: ami.refused, findings };
  const metadataOptions = metadataOptionsKeepingHopLimit(
    spec.take('metadataOptions'),
    object,
  );
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
    spec: compact({
      amiFamily: ami.amiFamily,
      amiSelectorTerms: ami.amiSelectorTerms,
      ...same,
      blockDeviceMappings: Array.isArray(blockDeviceMappings)
        ? copy(blockDeviceMappings)
        : ami.defaultBlockDeviceMappings,
      metadataOptions: metadataOptions.value,
    }),
  };
  return {
    converted,
    findings: [
      ...findings,
      ...ami.findings,
      ...metadataOptions.findings,
      ...spec.untaken(
        field => `spec.${field} has no equivalent on a v1 EC2NodeClass`,
      ),
    ],
  };
}
