import type { ParseCache } from './parseCache';
import { parseFiles } from './parseFiles';
import type { RepoTree } from './tree';
import {
  isYamlPath,
  ParsedDocument,
  parseYamlDocuments,
  SkippedFile,
} from './yamlObjects';

/**
 * The documents of one YAML file, from its text: the entry point of every
 * per-object parser, for the whole-tree reader (below) and for readers that
 * hold blob texts (the allocation index). A file that does not parse is
 * reported in `skipped`, not thrown.
 *
 * @public
 */
export function parseYamlFile(
  path: string,
  text: string,
  skipped: SkippedFile[],
): ParsedDocument[] {
  const { documents, error } = parseYamlDocuments(path, text);
  if (error) skipped.push({ path, reason: error });
  return documents;
}

/**
 * Reads and parses every YAML file under `prefix` (each content once across
 * passes: `parseFiles.ts`); bad files are reported, not thrown.
 */
export async function readDocuments(
  tree: RepoTree,
  prefix: string,
  skipped: SkippedFile[],
  accept: (path: string) => boolean = isYamlPath,
  cache?: ParseCache,
): Promise<ParsedDocument[]> {
  const paths = (await tree.listFiles(prefix)).filter(accept);
  return (await parseFiles(tree, paths, skipped, cache)).flat();
}
