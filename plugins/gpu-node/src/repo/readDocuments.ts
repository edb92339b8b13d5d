import { readFiles } from './readFiles';
import type { RepoTree } from './tree';
import {
  isYamlPath,
  ParsedDocument,
  parseYamlDocuments,
  SkippedFile,
} from './yamlObjects';

/** Reads and parses every YAML file under `prefix`; bad files are reported, not thrown. */
export async function readDocuments(
  tree: RepoTree,
  prefix: string,
  skipped: SkippedFile[],
  accept: (path: string) => boolean = isYamlPath,
): Promise<ParsedDocument[]> {
  const out: ParsedDocument[] = [];
  const paths = (await tree.listFiles(prefix)).filter(accept);
  const texts = await readFiles(tree, paths);
  paths.forEach((path, i) => {
    const text = texts[i];
    if (text === undefined) return;
    const { documents, error } = parseYamlDocuments(path, text);
    if (error) skipped.push({ path, reason: error });
    out.push(...documents);
  });
  return out;
}
