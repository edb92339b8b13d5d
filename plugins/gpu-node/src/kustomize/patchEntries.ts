/**
 * The patches a kustomization lists, as kustomize v5 reads them
 * (kubernetes-sigs/kustomize `api/types/kustomization.go`): the deprecated
 * `patchesStrategicMerge` (file paths or inline documents), `patches` (a
 * file or an inline string, with an optional target) and the deprecated
 * `patchesJson6902` (a target and a file or inline operations). Listed in
 * the order kustomize applies them (`api/internal/target/
 * kusttarget_configplugin.go` `configureBuiltinTransformers`, v5.x:
 * PatchStrategicMerge, then Patch, then PatchJson6902), each list in its
 * own order. One reader for every caller that must tell patches from
 * objects (`validate` judges no patch file as an object; the import
 * converts patches with theirs; the workload reader applies them).
 */
import { isPlainObject, type PlainObject } from '../repo/yamlObjects';
import { resolveEntry } from './entryPaths';
import { kustomizationFolder } from './fileNames';

/** One patch entry of a kustomization. */
export interface KustomizationPatchEntry {
  /** Path of the entry in the kustomization document (e.g. `['patches', 2]`). */
  entry: (string | number)[];
  /** The patch file's repository path, when the content is in a file. */
  file?: string;
  /** Path in the kustomization document of an inline content string. */
  inline?: (string | number)[];
  /** The entry's `target`, if any. */
  target?: PlainObject;
}

/** A `patchesStrategicMerge` string is a file path unless it is a YAML document itself. */
function isInlineDocument(item: string): boolean {
  return /\n|^\s*apiVersion:/.test(item);
}

/** The patch entries of the kustomization at `path` whose document is `value`. */
export function kustomizationPatchEntries(
  path: string,
  value: unknown,
): KustomizationPatchEntry[] {
  if (!isPlainObject(value)) return [];
  const folder = kustomizationFolder(path);
  const list = (key: string) =>
    Array.isArray(value[key]) ? (value[key] as unknown[]) : [];
  const out: KustomizationPatchEntry[] = [];
  /** A file entry; one that leaves the tree is kustomize's to refuse, not ours to read. */
  const pushFile = (entry: (string | number)[], file: string, target = {}) => {
    const resolved = resolveEntry(folder, file);
    if (resolved !== undefined) out.push({ entry, file: resolved, ...target });
  };
  list('patchesStrategicMerge').forEach((item, i) => {
    if (typeof item !== 'string') return;
    const entry = ['patchesStrategicMerge', i];
    if (isInlineDocument(item)) out.push({ entry, inline: entry });
    else pushFile(entry, item);
  });
  for (const key of ['patches', 'patchesJson6902']) {
    list(key).forEach((item, i) => {
      // kustomize also accepts a bare path string under `patches`.
      if (typeof item === 'string' && key === 'patches') {
        pushFile([key, i], item);
        return;
      }
      if (!isPlainObject(item)) return;
      const target = isPlainObject(item.target) ? { target: item.target } : {};
      if (typeof item.path === 'string') {
        pushFile([key, i], item.path, target);
      } else if (typeof item.patch === 'string') {
        out.push({ entry: [key, i], inline: [key, i, 'patch'], ...target });
      }
    });
  }
  return out;
}

/** The value at `path` of a kustomization document: an inline patch's text. */
export function inlinePatchText(
  kustomization: unknown,
  path: readonly (string | number)[],
): string | undefined {
  let at = kustomization;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return typeof at === 'string' ? at : undefined;
}
