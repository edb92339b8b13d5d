/**
 * What a root's build must be after an import, derived from its build
 * before: its Karpenter objects converted by the same converter the import
 * runs on the files (`convertKarpenterObjects`), plus the annotations each
 * adopted pool gains. Converting what kustomize built (bases with their
 * patches, replacements and transformers applied) and comparing it with
 * what kustomize builds from the converted files proves that the layering
 * followed the conversion: a patch or replacement that no longer applies to
 * the v1 object shows up as a difference. An adopted MachineDeployment and
 * its template's copy are derived from their build before alike.
 */
import { deepEqual } from '../changes/canonical';
import type { BuiltObject } from '../kustomize/build';
import type { PlainObject } from '../repo/yamlObjects';
import { convertKarpenterObjects } from './convert/convertKarpenterObjects';
import { isKarpenterObject } from './convert/legacyKinds';
import type { NodeClassContext } from './convert/nodeClassRef';

/** `<kind>/<name>` of an object. */
export const kindNameOf = (o: { kind?: unknown; metadata?: unknown }) =>
  `${String(o.kind)}/${String((o.metadata as PlainObject | undefined)?.name)}`;

export interface ImportIntent {
  /** Objects the import leaves as they are on purpose (`<kind>/<name>`). */
  keptLegacy: Set<string>;
  /** The annotations each adopted pool gains where it has none of that key (`<kind>/<name>` →). */
  addedAnnotations: Map<string, Record<string, string>>;
  /**
   * Objects an adoption edits or adds, each derived from an object built
   * before (`from`, `<kind>/<name>`): an adopted MachineDeployment and the
   * labelled copy of its bootstrap template (`adoptMachineDeployment.ts`).
   */
  derived?: Map<
    string,
    { from: string; edit: (built: PlainObject) => PlainObject }
  >;
  /**
   * The node classes the cluster's folder defines and its provider's: a
   * root's pools refer to them as the import converted them.
   */
  nodeClasses: NodeClassContext;
}

export function expectedConversion(
  built: BuiltObject[],
  intent: ImportIntent,
): Map<string, PlainObject> {
  const karpenter = built.filter(o => isKarpenterObject(o as PlainObject));
  const outputs = convertKarpenterObjects(
    karpenter.map(o => ({ key: kindNameOf(o), value: o as PlainObject })),
    new Map([...intent.keptLegacy].map(k => [k, 'kept as it is'])),
    intent.nodeClasses,
  );
  const expected = new Map<string, PlainObject>();
  for (const out of outputs) {
    const value = withAdded(out.value, intent);
    expected.set(kindNameOf(value), value);
  }
  for (const [kindName, { from, edit }] of intent.derived ?? []) {
    const source = built.find(o => kindNameOf(o) === from);
    if (source) {
      expected.set(kindName, edit(JSON.parse(JSON.stringify(source))));
    }
  }
  // What the import adopts without converting it (a GKE ComputeClass): the
  // object as built, with the adoption's annotations.
  for (const o of built) {
    const id = kindNameOf(o);
    if (expected.has(id) || !intent.addedAnnotations.has(id)) continue;
    expected.set(id, withAdded(o as PlainObject, intent));
  }
  return expected;
}

/** A copy of `object` with the annotations the adoption adds (a key already set kept). */
function withAdded(object: PlainObject, intent: ImportIntent): PlainObject {
  const value = JSON.parse(JSON.stringify(object)) as PlainObject;
  const added = intent.addedAnnotations.get(kindNameOf(value));
  if (!added) return value;
  const metadata = (value.metadata ?? {}) as PlainObject;
  const annotations = (metadata.annotations ?? {}) as Record<string, string>;
  for (const [key, v] of Object.entries(added)) annotations[key] ??= v;
  metadata.annotations = annotations;
  value.metadata = metadata;
  return value;
}

/** The first dotted path where `a` and `b` differ (for the refusal's words). */
export function firstDifference(
  a: unknown,
  b: unknown,
  at = '',
): string | undefined {
  if (deepEqual(a, b)) return undefined;
  if (
    a !== null &&
    b !== null &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    Array.isArray(a) === Array.isArray(b)
  ) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of [...keys].sort()) {
      const found = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        at ? `${at}.${key}` : key,
      );
      if (found !== undefined) return found;
    }
  }
  return at || '(the whole object)';
}
