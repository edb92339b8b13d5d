/**
 * `karpenter.k8s.aws/v1alpha1` AWSNodeTemplate → `karpenter.k8s.aws/v1`
 * EC2NodeClass, field by field as Karpenter's upgrade guides say
 * (`website/content/en/v1.0/upgrading/v1beta1-migration.md`, "AWSNodeTemplate
 * -> EC2NodeClass", then `v1-migration.md`, aws/karpenter-provider-aws), with
 * the field copies of `pkg/utils/nodeclass/nodeclass.go` (v0.32.10):
 *
 * - `subnetSelector`, `securityGroupSelector`, `amiSelector` → `*SelectorTerms`;
 * - `amiFamily` (AL2 when unset) → `amiSelectorTerms` alias or kept (`amiSelection.ts`);
 * - `instanceProfile`, `userData`, `tags`, `blockDeviceMappings`,
 *   `metadataOptions`, `detailedMonitoring`, `context` → same name in v1;
 * - `launchTemplate` (an unmanaged launch template) was removed in v1beta1:
 *   the object is not converted;
 * - no `instanceProfile`: the node ran the global `aws.defaultInstanceProfile`,
 *   which v1beta1 removed, and v1 needs `role` or `instanceProfile`: not converted.
 *
 * IMDS: v1 lowered the default `httpPutResponseHopLimit` from 2 to 1 (v1
 * guide, "New MetadataOptions Defaults"), which cuts pods without host
 * networking off the instance metadata; the old 2 is written out.
 */
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';
import { carriedMetadata, specOf, type Conversion } from './conversion';
import { ec2NodeClassLaunch } from './ec2NodeClassLaunch';
import { compact, copy, FieldReader } from './fieldReader';
import { objectLabel, type ImportFinding } from './findings';
import { amiTerms, idOrTagTerms } from './selectorTerms';

export function convertAwsNodeTemplate(source: PlainObject): Conversion {
  const object = objectLabel(source);
  const { metadata, findings } = carriedMetadata(source);
  const spec = new FieldReader(specOf(source), 'spec', object);
  const refused = whyNotConverted(spec);
  if (refused) return { refused, findings };
  const selectors = v1SelectorTerms(spec, object);
  const launch = ec2NodeClassLaunch(spec, selectors.amiSelectorTerms, object);
  if ('refused' in launch) return { refused: launch.refused, findings };
  const converted: PlainObject = {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata,
    spec: compact({
      ...launch.ami,
      subnetSelectorTerms: selectors.subnetSelectorTerms,
      securityGroupSelectorTerms: selectors.securityGroupSelectorTerms,
      instanceProfile: spec.take('instanceProfile'),
      userData: spec.take('userData'),
      tags: copyIfSet(spec.take('tags')),
      ...launch.devices,
      detailedMonitoring: spec.take('detailedMonitoring'),
      context: spec.take('context'),
    }),
  };
  return {
    converted,
    findings: [
      ...findings,
      ...selectors.findings,
      ...launch.findings,
      ...spec.untaken(field =>
        field === 'apiVersion' || field === 'kind'
          ? `spec.${field} belonged to the inline provider format and has no meaning on an EC2NodeClass`
          : `spec.${field} has no equivalent on a v1 EC2NodeClass`,
      ),
      ...missingSelectorTermsNote(selectors, object),
    ],
  };
}

/** Why the template cannot become a v1 EC2NodeClass, if it cannot. */
function whyNotConverted(spec: FieldReader): string | undefined {
  if (spec.has('launchTemplate')) {
    return `spec.launchTemplate (an unmanaged launch template, "${String(spec.take('launchTemplate'))}") was removed in Karpenter v1beta1 and has no v1 equivalent: move its settings into the node class (AMI, userData, block devices, metadata options) and import again`;
  }
  if (typeof spec.take('instanceProfile') !== 'string') {
    return 'spec.instanceProfile is not set (the node used the global aws.defaultInstanceProfile, which Karpenter v1beta1 removed) and a v1 EC2NodeClass needs a role or an instance profile: set spec.instanceProfile and import again';
  }
  return undefined;
}

interface V1SelectorTerms {
  /** Undefined when the template selects none. */
  subnetSelectorTerms?: Record<string, unknown>[];
  securityGroupSelectorTerms?: Record<string, unknown>[];
  amiSelectorTerms: Record<string, unknown>[];
  findings: ImportFinding[];
}

/** The subnet, security group and AMI selectors as v1's selector terms (`selectorTerms.ts`). */
function v1SelectorTerms(spec: FieldReader, object: string): V1SelectorTerms {
  const subnets = idOrTagTerms(
    spec.takeMap('subnetSelector') ?? {},
    'spec.subnetSelector',
    object,
  );
  const groups = idOrTagTerms(
    spec.takeMap('securityGroupSelector') ?? {},
    'spec.securityGroupSelector',
    object,
  );
  const amis = amiTerms(
    spec.takeMap('amiSelector') ?? {},
    'spec.amiSelector',
    object,
  );
  return {
    subnetSelectorTerms: subnets.terms.length ? subnets.terms : undefined,
    securityGroupSelectorTerms: groups.terms.length ? groups.terms : undefined,
    amiSelectorTerms: amis.terms,
    findings: [...subnets.findings, ...groups.findings, ...amis.findings],
  };
}

function missingSelectorTermsNote(
  selectors: V1SelectorTerms,
  object: string,
): ImportFinding[] {
  if (selectors.subnetSelectorTerms && selectors.securityGroupSelectorTerms) {
    return [];
  }
  return [
    {
      kind: 'note',
      object,
      message:
        'a v1 EC2NodeClass needs subnetSelectorTerms and securityGroupSelectorTerms; add the missing ones before the class is applied',
    },
  ];
}

function copyIfSet(value: unknown): unknown {
  return isPlainObject(value) || Array.isArray(value) ? copy(value) : value;
}
