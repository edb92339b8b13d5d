import { gitBlobId } from '../git/blobId';
import { processTurns, filterInTurns } from './eventLoopTurns';
import { sharedParseCache, type ParseCache } from './parseCache';
import { readFiles } from './readFiles';
import type { RepoTree } from './tree';
import type { ParsedDocument, SkippedFile } from './yamlObjects';

/**
 * The documents of each of `paths` (in their order), each file content
 * parsed once across passes (`parseCache.ts`), its syntax error reported in
 * `skipped` every time. A file whose blob id the tree knows (a git checkout:
 * `GitCheckoutTree`) and whose parse is kept is not even read; any other is
 * read and keyed by the id git would give its text. The event loop gets a
 * turn every slice of the walk.
 */
export async function parseFiles(
  tree: RepoTree,
  paths: readonly string[],
  skipped: SkippedFile[],
  cache: ParseCache = sharedParseCache,
): Promise<ParsedDocument[][]> {
  const ids = (await tree.blobIds?.()) ?? new Map<string, string>();
  const unseen = await filterInTurns(paths, path => {
    const id = ids.get(path);
    return id === undefined || !cache.has(id);
  });
  const unseenTexts = await readFiles(tree, unseen);
  const texts = new Map(unseen.map((path, i) => [path, unseenTexts[i]]));
  const documentsOf = async (path: string): Promise<ParsedDocument[]> => {
    const known = ids.get(path);
    if (known !== undefined && cache.has(known)) {
      return cache.documents(known, path, () => undefined, skipped);
    }
    // Read now if it was kept when the walk began and dropped since.
    const text = texts.has(path) ? texts.get(path) : await tree.readFile(path);
    if (text === undefined) return [];
    return cache.documents(known ?? gitBlobId(text), path, () => text, skipped);
  };
  const out: ParsedDocument[][] = [];
  for (const path of paths) {
    out.push(await documentsOf(path));
    await processTurns();
  }
  return out;
}
