/**
 * The patches a kustomization lists, as kustomize v5 reads them
 * (kubernetes-sigs/kustomize `api/types/kustomization.go`): `patches` (a
 * file or an inline string, with an optional target), the deprecated
 * `patchesStrategicMerge` (file paths or inline documents) and
 * `patchesJson6902` (a target and a file or inline operations). One reader
 * for every caller that must tell patches from objects (`validate` judges
 * no patch file as an object; the import converts patches with theirs).
 */
import { posix } from 'node:path';
import { isPlainObject, type PlainObject } from '../repo/yamlObjects';

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

/** The patch entries of the kustomization at `path` whose document is `value`. */
export function kustomizationPatchEntries(
  path: string,
  value: unknown,
): KustomizationPatchEntry[] {
  if (!isPlainObject(value)) return [];
  const folder = posix.dirname(path);
  const inFolder = (file: string) =>
    posix.normalize(posix.join(folder === '.' ? '' : folder, file));
  const list = (key: string) =>
    Array.isArray(value[key]) ? (value[key] as unknown[]) : [];
  const out: KustomizationPatchEntry[] = [];
  for (const key of ['patches', 'patchesJson6902']) {
    list(key).forEach((item, i) => {
      // kustomize also accepts a bare path string under `patches`.
      if (typeof item === 'string' && key === 'patches') {
        out.push({ entry: [key, i], file: inFolder(item) });
        return;
      }
      if (!isPlainObject(item)) return;
      const target = isPlainObject(item.target) ? item.target : undefined;
      const withTarget = target ? { target } : {};
      if (typeof item.path === 'string') {
        out.push({ entry: [key, i], file: inFolder(item.path), ...withTarget });
      } else if (typeof item.patch === 'string') {
        out.push({ entry: [key, i], inline: [key, i, 'patch'], ...withTarget });
      }
    });
  }
  list('patchesStrategicMerge').forEach((item, i) => {
    if (typeof item !== 'string') return;
    // An entry is a file path unless it is a YAML document itself.
    out.push(
      /\n|^\s*apiVersion:/.test(item)
        ? {
            entry: ['patchesStrategicMerge', i],
            inline: ['patchesStrategicMerge', i],
          }
        : { entry: ['patchesStrategicMerge', i], file: inFolder(item) },
    );
  });
  return out;
}
