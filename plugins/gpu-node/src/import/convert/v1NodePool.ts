/**
 * The `karpenter.sh/v1` NodePool both legacy pool converters write (v1alpha5
 * Provisioner: `provisioner.ts`; v1beta1 NodePool: `nodePoolV1beta1.ts`),
 * from the parts each reads in its own places, and the steps they share: the
 * node class reference a v1 NodePool must have, and the template's labels and
 * annotations (legacy node annotations renamed: `nodeAnnotations.ts`).
 */
import type { PlainObject } from '../../repo/yamlObjects';
import type { V1Disruption } from './disruption';
import { compact, copy, copyIfList } from './fieldReader';
import type { ImportFinding } from './findings';
import { renameDoNotDisrupt } from './nodeAnnotations';
import { v1NodeClassRef, type NodeClassContext } from './nodeClassRef';

export interface V1NodePoolParts {
  metadata: PlainObject;
  /** `spec.template.metadata` (`v1TemplateMetadata`); none when empty. */
  templateMetadata?: PlainObject;
  nodeClassRef: PlainObject;
  requirements: unknown[];
  /** Taints and startup taints as read: copied when lists. */
  taints: unknown;
  startupTaints: unknown;
  timing: V1Disruption;
  limits?: PlainObject;
  weight: unknown;
}

export function v1NodePool(parts: V1NodePoolParts): PlainObject {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: parts.metadata,
    spec: compact({
      template: compact({
        metadata: parts.templateMetadata,
        spec: compact({
          nodeClassRef: parts.nodeClassRef,
          requirements: parts.requirements,
          taints: copyIfList(parts.taints),
          startupTaints: copyIfList(parts.startupTaints),
          expireAfter: parts.timing.expireAfter,
        }),
      }),
      disruption: parts.timing.disruption,
      limits: parts.limits,
      weight: parts.weight,
    }),
  };
}

/**
 * The pool's v1 node class reference, or why it cannot have one: `missing`
 * when the legacy reference names no class, else `nodeClassRef.ts`'s reason.
 */
export function poolNodeClassRef(
  legacy: unknown,
  nodeClasses: NodeClassContext,
  missing: string,
): { ref: PlainObject } | { refused: string } {
  return v1NodeClassRef(legacy, nodeClasses) ?? { refused: missing };
}

/** The template's labels and annotations, with findings for renamed annotations. */
export function v1TemplateMetadata(
  labels: PlainObject | undefined,
  annotations: PlainObject | undefined,
  annotationsField: string,
  object: string,
): { metadata?: PlainObject; findings: ImportFinding[] } {
  const renamed = renameDoNotDisrupt(
    annotations ?? {},
    annotationsField,
    object,
  );
  const metadata = compact({
    labels: labels ? copy(labels) : undefined,
    annotations: Object.keys(renamed.annotations).length
      ? renamed.annotations
      : undefined,
  });
  return {
    ...(Object.keys(metadata).length ? { metadata } : {}),
    findings: renamed.findings,
  };
}
