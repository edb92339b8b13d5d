/**
 * A kustomization's patches read and applied to one object, as kustomize
 * applies them (kubernetes-sigs/kustomize `api/internal/builtins/
 * PatchTransformer.go`, `PatchStrategicMergeTransformer.go`,
 * `PatchJson6902Transformer.go`, v5.x): a patch with a `target:` applies to
 * every object the target selects (a strategic-merge patch whatever name it
 * carries), one without applies to the object its document names; a JSON
 * 6902 patch always has a target. For readers that tell what a folder
 * deploys without building it; the actions build with the real kustomize.
 */
import { strategicMerge } from '@gpu-gitops/plugin-gpu-common';
import type { PlainObject } from '../repo/yamlObjects';
import { applyJson6902 } from './json6902';
import type { Kustomization } from './kustomization';
import { readPatchContent, type PatchContent } from './patchContent';
import { inlinePatchText } from './patchEntries';
import { targetSelects } from './patchTarget';

/** One patch of a kustomization, its content read. */
export interface ReadPatch {
  content: PatchContent;
  target?: PlainObject;
}

/** The patches of `kustomization` in the order kustomize applies them; one whose content cannot be read is left out. */
export function readPatches(
  kustomization: Kustomization,
  readFile: (path: string) => string | undefined,
): ReadPatch[] {
  return kustomization.patches.flatMap(entry => {
    const text =
      entry.file !== undefined
        ? readFile(entry.file)
        : inlinePatchText(kustomization.value, entry.inline!);
    const content = text === undefined ? undefined : readPatchContent(text);
    if (!content) return [];
    return [{ content, ...(entry.target ? { target: entry.target } : {}) }];
  });
}

const metadataOf = (o: PlainObject) =>
  (o.metadata ?? {}) as { name?: unknown; namespace?: unknown };

/** A targeted strategic-merge patch takes the selected object's name and namespace (kustomize's PatchTransformer does). */
function retargeted(document: PlainObject, object: PlainObject): PlainObject {
  const { name, namespace } = metadataOf(object);
  const { name: _name, namespace: _namespace, ...rest } = metadataOf(document);
  return {
    ...document,
    metadata: {
      ...rest,
      name,
      ...(namespace !== undefined ? { namespace } : {}),
    },
  };
}

/** `object` as `patch` leaves it. */
export function patchObject(
  object: PlainObject,
  patch: ReadPatch,
): PlainObject {
  const { content, target } = patch;
  if (target && !targetSelects(target, object)) return object;
  if (content.form === 'json6902') {
    return target
      ? (applyJson6902(object, content.operations) as PlainObject)
      : object;
  }
  return content.documents.reduce<PlainObject>((patched, document) => {
    if (target) {
      return strategicMerge(
        patched,
        retargeted(document, patched),
      ) as PlainObject;
    }
    const named =
      document.kind === object.kind &&
      metadataOf(document).name === metadataOf(object).name;
    return named ? (strategicMerge(patched, document) as PlainObject) : patched;
  }, object);
}
