/**
 * `karpenter.sh/v1beta1` NodePool → `karpenter.sh/v1`, as the v1 conversion
 * webhook does it (`NodePool.ConvertFrom`, `pkg/apis/v1/nodepool_conversion.go`,
 * kubernetes-sigs/karpenter v1.0.0) and the v1 guide's changelog says
 * (`website/content/en/v1.0/upgrading/v1-migration.md`):
 *
 * - `weight`, `limits`, template labels, annotations, requirements (with
 *   `minValues`), taints, startup taints: unchanged;
 * - `nodeClassRef {apiVersion, kind, name}` → `{group, kind, name}`;
 * - `disruption` (`disruption.ts`): `WhenUnderutilized` renamed,
 *   `consolidateAfter` required, `expireAfter` moved into the template;
 * - `template.spec.kubelet` → the node class's `spec.kubelet` (returned, for
 *   `kubeletToNodeClass.ts`; the webhook only parks it in an annotation that
 *   v1.1 stops reading);
 * - `template.spec.resources` has no v1 field: reported with its value.
 *
 * The v1 NodePool itself is written as the Provisioner converter writes it
 * (`v1NodePool.ts`).
 */
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';
import { carriedMetadata, specOf, type Conversion } from './conversion';
import { disruptionFromV1beta1 } from './disruption';
import { copy, FieldReader } from './fieldReader';
import { objectLabel } from './findings';
import { v1KubeletFields } from './kubeletFields';
import type { NodeClassContext } from './nodeClassRef';
import { poolNodeClassRef, v1NodePool, v1TemplateMetadata } from './v1NodePool';

export function convertNodePoolV1beta1(
  source: PlainObject,
  nodeClasses: NodeClassContext,
): Conversion {
  const object = objectLabel(source);
  const { metadata, findings } = carriedMetadata(source);
  const { spec, template, templateMetadata, templateSpec } = readers(
    source,
    object,
  );
  const reference = poolNodeClassRef(
    templateSpec.take('nodeClassRef'),
    nodeClasses,
    'spec.template.spec.nodeClassRef.name is not set, and a v1 NodePool must name its node class',
  );
  if ('refused' in reference) return { refused: reference.refused, findings };
  const newTemplate = v1TemplateMetadata(
    templateMetadata.takeMap('labels'),
    templateMetadata.takeMap('annotations'),
    'spec.template.metadata.annotations',
    object,
  );
  const kubelet = v1KubeletFields(
    templateSpec.take('kubelet'),
    'spec.template.spec.kubelet',
    object,
  );
  const timing = disruptionFromV1beta1(spec.take('disruption'), object);
  const limits = spec.take('limits');
  const converted = v1NodePool({
    metadata,
    templateMetadata: newTemplate.metadata,
    nodeClassRef: reference.ref,
    requirements: copy(templateSpec.take('requirements') ?? []) as unknown[],
    taints: templateSpec.take('taints'),
    startupTaints: templateSpec.take('startupTaints'),
    timing,
    limits: isPlainObject(limits) ? copy(limits) : undefined,
    weight: spec.take('weight'),
  });
  return {
    converted,
    ...(kubelet.kubelet ? { kubelet: kubelet.kubelet } : {}),
    findings: [
      ...findings,
      ...newTemplate.findings,
      ...kubelet.findings,
      ...timing.findings,
      ...templateSpec.untaken(f => noEquivalent(`spec.template.spec.${f}`)),
      ...templateMetadata.untaken(f =>
        noEquivalent(`spec.template.metadata.${f}`),
      ),
      ...template.untaken(f => noEquivalent(`spec.template.${f}`)),
      ...spec.untaken(f => noEquivalent(`spec.${f}`)),
    ],
  };
}

/** A reader of the spec and of each level of its template, whose untaken fields are reported. */
function readers(source: PlainObject, object: string) {
  const spec = new FieldReader(specOf(source), 'spec', object);
  const template = new FieldReader(
    spec.takeMap('template') ?? {},
    'spec.template',
    object,
  );
  const templateMetadata = new FieldReader(
    template.takeMap('metadata') ?? {},
    'spec.template.metadata',
    object,
  );
  const templateSpec = new FieldReader(
    template.takeMap('spec') ?? {},
    'spec.template.spec',
    object,
  );
  return { spec, template, templateMetadata, templateSpec };
}

function noEquivalent(field: string): string {
  return field === 'spec.template.spec.resources'
    ? 'spec.template.spec.resources has no field in a v1 NodePool'
    : `${field} has no equivalent in a v1 NodePool`;
}
