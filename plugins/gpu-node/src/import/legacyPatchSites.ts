/**
 * Where the kustomizations of a cluster's folder patch Karpenter objects:
 * `patches` (a file or an inline string, strategic merge or JSON6902 by
 * content, with or without a target), `patchesStrategicMerge` (files or
 * inline documents) and `patchesJson6902` (a target and a file or inline
 * operations), as kustomize v5 reads them (kubernetes-sigs/kustomize
 * `api/types/kustomization.go`, `api/internal/builtins/PatchTransformer.go`:
 * a patch whose content is a list is a JSON6902 patch, else a strategic
 * merge one). Each site knows the objects it targets, so the import converts
 * a patch with the objects it patches, or leaves both as they are.
 */
import { parse } from 'yaml';
import {
  inlinePatchText,
  kustomizationPatchEntries,
} from '../kustomize/patchEntries';
import { readPatchContent, type PatchContent } from '../kustomize/patchContent';
import { targetSelects } from '../kustomize/patchTarget';
import { isKustomizationFile } from '../kustomize/fileNames';
import { isPlainObject, type PlainObject } from '../repo/yamlObjects';
import { apiKey } from './convert/legacyPatches';

/** A Karpenter object of the cluster's folder a patch may target. */
export interface PatchableObject {
  /** The import's key of the object (`<path>#<document>`). */
  key: string;
  value: PlainObject;
}

/** One patch of a kustomization and where its content lives. */
export interface PatchSite {
  /** The kustomization file. */
  kustomization: string;
  /** Path of the entry in the kustomization document (e.g. `['patches', 2]`). */
  entry: (string | number)[];
  /** The patch file, when the content is in one. */
  file?: string;
  /** Path in the kustomization document of an inline content string. */
  inline?: (string | number)[];
  /** The entry's `target`, if any. */
  target?: PlainObject;
  content: PatchContent;
  /** Keys of the Karpenter objects it patches. */
  targets: string[];
  /** How the site is named in the report. */
  label: string;
}

const nameOf = (o: PlainObject) =>
  String((o.metadata as PlainObject | undefined)?.name ?? '');

function targetsOf(
  content: PatchContent,
  target: PlainObject | undefined,
  objects: PatchableObject[],
): string[] {
  if (target) {
    return objects.filter(o => targetSelects(target, o.value)).map(o => o.key);
  }
  if (content.form === 'json6902') return [];
  return objects
    .filter(o =>
      content.documents.some(
        d =>
          apiKey(d.apiVersion, d.kind) ===
            apiKey(o.value.apiVersion, o.value.kind) &&
          nameOf(d) === nameOf(o.value),
      ),
    )
    .map(o => o.key);
}

/** A patch of a kustomization, read; its targets not known yet. */
export type PatchEntry = Omit<PatchSite, 'targets'>;

/**
 * Every patch of the kustomizations in `files` (path → text) whose content
 * the import can read (a file `readFile` finds, or an inline string); a
 * patch it cannot read breaks the build before and after alike.
 */
export async function readPatchEntries(
  files: Map<string, string>,
  readFile: (path: string) => Promise<string | undefined>,
): Promise<PatchEntry[]> {
  const out: PatchEntry[] = [];
  for (const [kustomization, text] of files) {
    if (!isKustomizationFile(kustomization)) continue;
    let value: unknown;
    try {
      value = parse(text);
    } catch {
      continue; // the import reports unreadable YAML already
    }
    if (!isPlainObject(value)) continue;
    const raw = kustomizationPatchEntries(kustomization, value);
    for (const e of raw) {
      const file = e.file;
      const content = readPatchContent(
        (file === undefined
          ? inlinePatchText(value, e.inline!)
          : await readFile(file)) ?? '',
      );
      if (!content) continue;
      out.push({
        kustomization,
        entry: e.entry,
        ...(file !== undefined ? { file } : {}),
        ...(e.inline ? { inline: e.inline } : {}),
        ...(e.target ? { target: e.target } : {}),
        content,
        label:
          file ?? `the inline patch ${e.entry.join('.')} of ${kustomization}`,
      });
    }
  }
  return out;
}

/** The entries that patch one of `objects`, each with the keys of those it patches. */
export function patchSitesOf(
  entries: PatchEntry[],
  objects: PatchableObject[],
): PatchSite[] {
  return entries.flatMap(entry => {
    const targets = targetsOf(entry.content, entry.target, objects);
    return targets.length > 0 ? [{ ...entry, targets }] : [];
  });
}
