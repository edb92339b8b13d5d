import { isMap } from 'yaml';
import { ensureSeq, YamlFile } from '../changes/yamlFile';
import { removeFromList } from './editKustomization';
import { resolveEntry } from './entryPaths';
import { kustomizationFolder } from './fileNames';
import { kustomizationPatchEntries } from './patchEntries';

/**
 * Removes every entry that applies the patch file `patchPath` (relative to
 * the kustomization's folder), whichever patch field lists it and however
 * the path is written: the entries are those the kustomization model reads
 * (`kustomize/patchEntries.ts`), so what is dropped is what kustomize would
 * have applied. An emptied field goes with its key.
 */
export function removePatch(file: YamlFile, patchPath: string): void {
  const doc = file.docs.find(d => isMap(d.contents));
  const patchFile = resolveEntry(kustomizationFolder(file.path), patchPath);
  if (!doc || patchFile === undefined) return;
  const listed = kustomizationPatchEntries(file.path, doc.toJS()).filter(
    entry => entry.file === patchFile,
  );
  for (const key of new Set(listed.map(entry => String(entry.entry[0])))) {
    const places = new Set(
      listed.filter(e => e.entry[0] === key).map(e => e.entry[1]),
    );
    removeFromList(file, key, (_plain, index) => places.has(index));
  }
}

/**
 * Adds a strategic-merge patch file at the END of `patches`: kustomize applies
 * patches in list order, and ours must come after the overlay's own (e.g. its
 * replica count), or they would undo the GPU change.
 */
export function addPatch(file: YamlFile, patchPath: string): void {
  const doc = file.firstMap();
  const seq = ensureSeq(doc, ['patches']);
  const present = seq.items.some(item => {
    const plain =
      (item as { toJSON?: () => unknown }).toJSON?.() ??
      (item as { value?: unknown }).value;
    return (
      plain === patchPath ||
      (typeof plain === 'object' &&
        plain !== null &&
        (plain as { path?: unknown }).path === patchPath)
    );
  });
  if (present) return;
  seq.items.push(doc.createNode({ path: patchPath }));
  file.modified = true;
}
