/**
 * The result of converting one legacy Karpenter object to `v1`, and the parts
 * every converter shares (metadata, fields outside `spec`).
 */
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';
import { copy } from './fieldReader';
import { objectLabel, type ImportFinding } from './findings';

/** @public */
export type Conversion =
  | {
      converted: PlainObject;
      findings: ImportFinding[];
      /**
       * A NodePool's kubelet settings, which v1 keeps on its node class
       * (`kubeletToNodeClass` puts them there or reports why not).
       */
      kubelet?: PlainObject;
    }
  | { refused: string; findings: ImportFinding[] };

/**
 * The object's metadata as it is (name, labels, annotations, namespace...),
 * and findings for whatever sits beside `apiVersion`, `kind`, `metadata` and
 * `spec` (a `status` copied from a cluster is the controller's to write).
 */
export function carriedMetadata(source: PlainObject): {
  metadata: PlainObject;
  findings: ImportFinding[];
} {
  const object = objectLabel(source);
  const findings: ImportFinding[] = Object.keys(source)
    .filter(k => !['apiVersion', 'kind', 'metadata', 'spec'].includes(k))
    .map(k => ({
      kind: 'no-v1-equivalent' as const,
      object,
      field: k,
      value: source[k],
      message:
        k === 'status'
          ? 'status is written by the Karpenter controller, not kept in Git'
          : `top-level field ${k} is not part of the v1 object`,
    }));
  return {
    metadata: isPlainObject(source.metadata) ? copy(source.metadata) : {},
    findings,
  };
}

/** The object's `spec` (an empty map when missing). */
export function specOf(source: PlainObject): PlainObject {
  return isPlainObject(source.spec) ? source.spec : {};
}
