/**
 * What a patch says, read from its text: a JSON 6902 patch (a list of
 * operations) or strategic-merge documents. kustomize decides by the
 * content, not by the field that lists it
 * (kubernetes-sigs/kustomize `api/internal/builtins/PatchTransformer.go`,
 * v5.x: a patch that decodes as a JSON patch list is one).
 */
import { parseAllDocuments } from 'yaml';
import { isPlainObject, type PlainObject } from '../repo/yamlObjects';

export type PatchContent =
  | { form: 'strategic-merge'; documents: PlainObject[] }
  | { form: 'json6902'; operations: PlainObject[] };

/** The patch of `text`; undefined when it does not parse or mixes forms. */
export function readPatchContent(text: string): PatchContent | undefined {
  let documents: unknown[];
  try {
    documents = parseAllDocuments(text).map(d =>
      d.toJS({ maxAliasCount: 100 }),
    );
  } catch {
    return undefined;
  }
  if (documents.length === 1 && Array.isArray(documents[0])) {
    return {
      form: 'json6902',
      operations: (documents[0] as unknown[]).filter(isPlainObject),
    };
  }
  const maps = documents.filter(isPlainObject);
  return maps.length === documents.filter(d => d !== null).length
    ? { form: 'strategic-merge', documents: maps }
    : undefined;
}
