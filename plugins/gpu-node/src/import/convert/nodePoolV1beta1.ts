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
 */
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';
import { carriedMetadata, specOf, type Conversion } from './conversion';
import { disruptionFromV1beta1 } from './disruption';
import { compact, copy, FieldReader } from './fieldReader';
import { objectLabel } from './findings';
import { v1KubeletFields } from './kubeletFields';
import { renameDoNotDisrupt } from './nodeAnnotations';
import { v1NodeClassRef, type NodeClassContext } from './nodeClassRef';

export function convertNodePoolV1beta1(
  source: PlainObject,
  nodeClasses: NodeClassContext,
): Conversion {
  const object = objectLabel(source);
  const { metadata, findings } = carriedMetadata(source);
  const spec = new FieldReader(specOf(source), 'spec', object);
  const templateValue = spec.takeMap('template') ?? {};
  const template = new FieldReader(templateValue, 'spec.template', object);
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
  const reference = v1NodeClassRef(
    templateSpec.take('nodeClassRef'),
    nodeClasses,
  );
  if (!reference) {
    return {
      refused:
        'spec.template.spec.nodeClassRef.name is not set, and a v1 NodePool must name its node class',
      findings,
    };
  }
  if ('refused' in reference) {
    return { refused: reference.refused, findings };
  }
  const nodeClassRef = reference.ref;
  const annotations = renameDoNotDisrupt(
    templateMetadata.takeMap('annotations') ?? {},
    'spec.template.metadata.annotations',
    object,
  );
  const labels = templateMetadata.takeMap('labels');
  const kubelet = v1KubeletFields(
    templateSpec.take('kubelet'),
    'spec.template.spec.kubelet',
    object,
  );
  const timing = disruptionFromV1beta1(spec.take('disruption'), object);
  const newTemplateMetadata = compact({
    labels: labels ? copy(labels) : undefined,
    annotations: Object.keys(annotations.annotations).length
      ? annotations.annotations
      : undefined,
  });
  const limits = spec.take('limits');
  const converted: PlainObject = {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata,
    spec: compact({
      template: compact({
        metadata: Object.keys(newTemplateMetadata).length
          ? newTemplateMetadata
          : undefined,
        spec: compact({
          nodeClassRef,
          requirements: copy(templateSpec.take('requirements') ?? []),
          taints: copyIfList(templateSpec.take('taints')),
          startupTaints: copyIfList(templateSpec.take('startupTaints')),
          expireAfter: timing.expireAfter,
        }),
      }),
      disruption: timing.disruption,
      limits: isPlainObject(limits) ? copy(limits) : undefined,
      weight: spec.take('weight'),
    }),
  };
  const noEquivalent = (field: string) =>
    field === 'spec.template.spec.resources'
      ? 'spec.template.spec.resources has no field in a v1 NodePool'
      : `${field} has no equivalent in a v1 NodePool`;
  return {
    converted,
    ...(kubelet.kubelet ? { kubelet: kubelet.kubelet } : {}),
    findings: [
      ...findings,
      ...annotations.findings,
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

function copyIfList(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? copy(value) : undefined;
}
