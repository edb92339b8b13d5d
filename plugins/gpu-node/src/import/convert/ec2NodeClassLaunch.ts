/**
 * What both AWS node class converters (v1alpha1 AWSNodeTemplate:
 * `awsNodeTemplate.ts`; v1beta1 EC2NodeClass: `ec2NodeClassV1beta1.ts`) read
 * the same way into a `karpenter.k8s.aws/v1` EC2NodeClass: the AMI family and
 * selector terms with the block devices a dropped family's default needs
 * (`amiSelection.ts`), and the IMDS options with the old hop limit kept
 * (`metadataOptions.ts`).
 */
import type { PlainObject } from '../../repo/yamlObjects';
import { amiSelection } from './amiSelection';
import { copy, type FieldReader } from './fieldReader';
import type { ImportFinding } from './findings';
import { metadataOptionsKeepingHopLimit } from './metadataOptions';

export interface Ec2NodeClassLaunch {
  /** `amiFamily` and `amiSelectorTerms` (undefined when unset). */
  ami: PlainObject;
  /** `blockDeviceMappings` and `metadataOptions`. */
  devices: PlainObject;
  findings: ImportFinding[];
}

/** `terms`: the AMI selector terms, already v1's. */
export function ec2NodeClassLaunch(
  spec: FieldReader,
  terms: Record<string, unknown>[],
  object: string,
): Ec2NodeClassLaunch | { refused: string } {
  const blockDeviceMappings = spec.take('blockDeviceMappings');
  const ami = amiSelection(
    String(spec.take('amiFamily') ?? 'AL2'),
    terms,
    Array.isArray(blockDeviceMappings),
    object,
  );
  if ('refused' in ami) return { refused: ami.refused };
  const metadataOptions = metadataOptionsKeepingHopLimit(
    spec.take('metadataOptions'),
    object,
  );
  return {
    ami: { amiFamily: ami.amiFamily, amiSelectorTerms: ami.amiSelectorTerms },
    devices: {
      blockDeviceMappings: Array.isArray(blockDeviceMappings)
        ? copy(blockDeviceMappings)
        : ami.defaultBlockDeviceMappings,
      metadataOptions: metadataOptions.value,
    },
    findings: [...ami.findings, ...metadataOptions.findings],
  };
}
