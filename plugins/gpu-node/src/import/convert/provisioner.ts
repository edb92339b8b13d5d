/**
 * `karpenter.sh/v1alpha5` Provisioner → `karpenter.sh/v1` NodePool, field by
 * field as Karpenter's upgrade guides say
 * (`website/content/en/v1.0/upgrading/v1beta1-migration.md`, "Provisioner ->
 * NodePool", then `v1-migration.md`; the copy itself is `New` in
 * `pkg/utils/nodepool/nodepool.go`, kubernetes-sigs/karpenter v0.32.10):
 *
 * - `labels`, `annotations` → `spec.template.metadata.*` (legacy node
 *   annotations renamed: `nodeAnnotations.ts`; the NodePool itself, as the
 *   v1beta1 converter writes it too: `v1NodePool.ts`);
 * - `requirements`, `taints`, `startupTaints` → `spec.template.spec.*`
 *   (the `karpenter.k8s.aws/instance-pods` label was dropped in v1beta1);
 * - `providerRef` → `spec.template.spec.nodeClassRef` (`nodeClassRef.ts`);
 * - `kubeletConfiguration` → the node class's `spec.kubelet` (returned, for
 *   `kubeletToNodeClass.ts`);
 * - TTLs and consolidation → `spec.disruption` / `expireAfter` (`disruption.ts`);
 * - `limits.resources` → `spec.limits`; `weight` → `spec.weight`.
 *
 * The inline `provider` (deprecated since v0.7, removed in v1beta1) has no
 * place on a NodePool: it is reported with its value. A Provisioner with only
 * an inline provider has no node class to refer to and is not converted.
 */
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';
import { carriedMetadata, specOf, type Conversion } from './conversion';
import { disruptionFromProvisioner } from './disruption';
import { copy, FieldReader } from './fieldReader';
import { objectLabel, type ImportFinding } from './findings';
import { v1KubeletFields } from './kubeletFields';
import type { NodeClassContext } from './nodeClassRef';
import { poolNodeClassRef, v1NodePool, v1TemplateMetadata } from './v1NodePool';

/** Dropped in v1beta1 ("Karpenter Labels" table of the v1beta1 guide). */
const DROPPED_LABELS = ['karpenter.k8s.aws/instance-pods'];

/** The only node class a v1alpha5 providerRef could name (AWS's). */
const LEGACY_AWS_PROVIDER_REF = {
  apiVersion: 'karpenter.k8s.aws/v1alpha1',
  kind: 'AWSNodeTemplate',
};

export function convertProvisioner(
  source: PlainObject,
  nodeClasses: NodeClassContext,
): Conversion {
  const object = objectLabel(source);
  const { metadata, findings } = carriedMetadata(source);
  const spec = new FieldReader(specOf(source), 'spec', object);
  findings.push(...inlineProviderFindings(spec.take('provider'), object));
  const reference = poolNodeClassRef(
    awsProviderRef(spec.take('providerRef')),
    nodeClasses,
    'the Provisioner has no spec.providerRef, and a v1 NodePool must name its node class: move the inline spec.provider into an AWSNodeTemplate, refer to it with spec.providerRef and import again',
  );
  if ('refused' in reference) return { refused: reference.refused, findings };
  const limits = limitResources(spec.takeMap('limits'), object);
  const template = v1TemplateMetadata(
    spec.takeMap('labels'),
    spec.takeMap('annotations'),
    'spec.annotations',
    object,
  );
  const requirements = withoutDroppedLabels(spec.take('requirements'), object);
  const kubelet = v1KubeletFields(
    spec.take('kubeletConfiguration'),
    'spec.kubeletConfiguration',
    object,
  );
  const timing = disruptionFromProvisioner(spec, object);
  const converted = v1NodePool({
    metadata,
    templateMetadata: template.metadata,
    nodeClassRef: reference.ref,
    requirements: requirements.requirements ?? [],
    taints: spec.take('taints'),
    startupTaints: spec.take('startupTaints'),
    timing,
    limits: limits.resources,
    weight: spec.take('weight'),
  });
  return {
    converted,
    ...(kubelet.kubelet ? { kubelet: kubelet.kubelet } : {}),
    findings: [
      ...findings,
      ...limits.findings,
      ...template.findings,
      ...requirements.findings,
      ...kubelet.findings,
      ...timing.findings,
      ...spec.untaken(
        field => `spec.${field} has no equivalent in a v1 NodePool`,
      ),
    ],
  };
}

function inlineProviderFindings(
  provider: unknown,
  object: string,
): ImportFinding[] {
  if (provider === undefined) return [];
  return [
    {
      kind: 'no-v1-equivalent',
      object,
      field: 'spec.provider',
      value: provider,
      message:
        'the inline provider was removed in Karpenter v1beta1: its settings belong on the EC2NodeClass the NodePool refers to',
    },
  ];
}

/**
 * Only the AWS provider served v1alpha5 (Azure's began with v1beta1,
 * Azure/karpenter-provider-azure v0.0.1 `examples/v1beta1/`): a bare
 * providerRef is an AWSNodeTemplate's.
 */
function awsProviderRef(providerRef: unknown): unknown {
  return isPlainObject(providerRef)
    ? { ...LEGACY_AWS_PROVIDER_REF, ...providerRef }
    : providerRef;
}

/** `limits.resources` becomes `spec.limits`; any other limit is reported. */
function limitResources(
  limits: PlainObject | undefined,
  object: string,
): { resources?: PlainObject; findings: ImportFinding[] } {
  const findings: ImportFinding[] = Object.keys(limits ?? {})
    .filter(key => key !== 'resources')
    .map(key => ({
      kind: 'no-v1-equivalent' as const,
      object,
      field: `spec.limits.${key}`,
      value: limits![key],
      message: `spec.limits.${key} has no equivalent in a v1 NodePool (only limits.resources became spec.limits)`,
    }));
  return isPlainObject(limits?.resources)
    ? { resources: copy(limits!.resources as PlainObject), findings }
    : { findings };
}

function withoutDroppedLabels(
  value: unknown,
  object: string,
): { requirements?: unknown[]; findings: ImportFinding[] } {
  if (!Array.isArray(value)) return { findings: [] };
  const findings: ImportFinding[] = [];
  const requirements = copy(value).filter((r, i) => {
    const key = isPlainObject(r) ? r.key : undefined;
    if (typeof key !== 'string' || !DROPPED_LABELS.includes(key)) return true;
    findings.push({
      kind: 'no-v1-equivalent',
      object,
      field: `spec.requirements.${i}`,
      value: r,
      message: `the label ${key} was dropped in Karpenter v1beta1; the requirement on it is left out`,
    });
    return false;
  });
  return { requirements, findings };
}
