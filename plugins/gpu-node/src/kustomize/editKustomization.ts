/**
 * Editing a kustomization file the way every editor beside it does: open it
 * (an empty file becomes a Kustomization), name a path from its folder, and
 * take items out of one of its lists. The editors of each field are their
 * own modules: `editResources.ts`, `editPatches.ts`, `editGenerators.ts`,
 * `editReplicas.ts`.
 */
import { posix } from 'path';
import { isMap, isSeq, YAMLMap } from 'yaml';
import { YamlFile } from '../changes/yamlFile';

const KUSTOMIZATION_HEADER = {
  apiVersion: 'kustomize.config.k8s.io/v1beta1',
  kind: 'Kustomization',
};

/** Opens (or starts) a kustomization.yaml; an empty file becomes a Kustomization. */
export function openKustomization(
  path: string,
  text: string | undefined,
): YamlFile {
  const file = YamlFile.parse(path, text);
  const doc = file.firstMap();
  if (!doc.has('kind')) {
    const map = doc.contents as YAMLMap;
    // Header first, before anything the file already holds.
    map.items.unshift(doc.createPair('kind', KUSTOMIZATION_HEADER.kind));
    map.items.unshift(
      doc.createPair('apiVersion', KUSTOMIZATION_HEADER.apiVersion),
    );
    file.modified = true;
  }
  return file;
}

/** Path of `target` relative to the folder of `kustomizationPath`. */
export function relativeTo(kustomizationPath: string, target: string): string {
  return posix.relative(posix.dirname(kustomizationPath), target);
}

/**
 * What becomes of a list its last item leaves: `drop` takes the key out (a
 * key the product added with its first item), `keep` leaves `[]` (the GPU
 * folder's kustomization, which the bootstrap writes with `resources: []`).
 */
export type EmptiedList = 'drop' | 'keep';

/** Removes the items `matches` picks (by value or place) from the list at `key`; an emptied list goes with its key unless `emptied` is `keep`. */
export function removeFromList(
  file: YamlFile,
  key: string,
  matches: (plain: unknown, index: number) => boolean,
  emptied: EmptiedList = 'drop',
): void {
  // An empty file lists nothing: it is left as it is (no header added).
  const doc = file.docs.find(d => isMap(d.contents));
  const seq = doc?.get(key, true);
  if (!doc || !isSeq(seq)) return;
  const kept = seq.items.filter((item, i) => !matches(toPlainItem(item), i));
  if (kept.length === seq.items.length) return;
  if (kept.length === 0 && emptied === 'drop') doc.delete(key);
  else {
    seq.items = kept;
    if (kept.length === 0) seq.flow = true;
  }
  file.modified = true;
}

export function toPlainItem(item: unknown): unknown {
  return (
    (item as { toJSON?: () => unknown }).toJSON?.() ??
    (item as { value?: unknown }).value ??
    item
  );
}
