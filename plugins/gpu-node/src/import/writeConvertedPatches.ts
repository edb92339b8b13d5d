/**
 * Writes the patches the import converted where they are: a patch file's
 * documents in place (comments kept), a `.json` patch file as JSON, an
 * inline patch string in its kustomization, and a target's version.
 */
import { stringify } from 'yaml';
import { deepEqual } from '../changes/canonical';
import type { StagedTree } from '../changes/stagedTree';
import { syncNode, type YamlFile } from '../changes/yamlFile';
import type { ConvertedPatch } from './convertWithPatches';
import type { PatchContent } from '../kustomize/patchContent';

export const isJsonPath = (path: string) => path.endsWith('.json');

function contentValues(content: PatchContent): unknown[] {
  return content.form === 'json6902' ? [content.operations] : content.documents;
}

/** The content as YAML, ending in a newline only where `original` did (`|` vs `|-`). */
function contentText(content: PatchContent, original: string): string {
  const text = contentValues(content)
    .map(value => stringify(value, { lineWidth: 0 }))
    .join('---\n');
  return original.endsWith('\n') ? text : text.replace(/\n+$/, '');
}

/** Replaces the file's non-empty documents, in order, by `values`. */
function syncDocuments(file: YamlFile, values: unknown[]): void {
  let next = 0;
  for (const doc of file.docs) {
    if (doc.contents === null) continue;
    if (syncNode(doc, [], values[next++])) file.modified = true;
  }
}

export async function writeConvertedPatches(
  patches: ConvertedPatch[],
  files: Map<string, { file: YamlFile }>,
  staged: StagedTree,
): Promise<void> {
  for (const { site, content, target } of patches) {
    const kustomization = files.get(site.kustomization)!.file;
    if (deepEqual(content, site.content)) {
      // Only the target's version changes: the patch stays as written.
    } else if (site.file === undefined) {
      const original = String(kustomization.docs[0].getIn(site.inline!));
      const text = contentText(content, original);
      if (syncNode(kustomization.docs[0], site.inline!, text)) {
        kustomization.modified = true;
      }
    } else if (isJsonPath(site.file)) {
      const [value] = contentValues(content);
      await staged.write(
        site.file,
        `${JSON.stringify(content.form === 'json6902' ? value : contentValues(content), null, 2)}\n`,
      );
    } else {
      syncDocuments(files.get(site.file)!.file, contentValues(content));
    }
    if (
      target &&
      syncNode(kustomization.docs[0], [...site.entry, 'target'], target)
    ) {
      kustomization.modified = true;
    }
  }
}
