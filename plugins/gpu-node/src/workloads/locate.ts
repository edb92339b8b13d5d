/**
 * Where objects of a given name are in a repository, and the namespace each
 * is deployed to (its own, or the one the kustomizations that include it set).
 */
import { filesMentioning } from '../repo/filesMentioning';
import { readFiles } from '../repo/readFiles';
import type { RepoTree } from '../repo/tree';
import {
  asKubernetesObject,
  getIn,
  isYamlPath,
  parseYamlDocuments,
  type PlainObject,
} from '../repo/yamlObjects';
import {
  chainNamespace,
  chainsFromRoots,
  includersOfFile,
  readKustomizations,
  type KustomizationIndex,
} from './kustomizations';

export interface Found {
  file: string;
  documentIndex: number;
  object: PlainObject & {
    kind: string;
    metadata: PlainObject & { name: string };
  };
}

/**
 * Every object of the tree whose name (or release name) is `name`. Only the
 * files that mention the name are read (`filesMentioning`: on a checkout,
 * one `git grep`): a request's sparse checkout holds the whole workloads
 * folder, and reading its 2,000 files to find a name none of them held was
 * most of the bench's "Apply plan to the repository".
 */
export async function objectsNamed(
  tree: RepoTree,
  name: string,
): Promise<Found[]> {
  const found: Found[] = [];
  const files = await filesMentioning(
    tree,
    (await tree.listFiles('')).filter(isYamlPath),
    [name],
  );
  const texts = await readFiles(tree, files);
  for (const [i, file] of files.entries()) {
    const text = texts[i];
    // Most files never mention the name: skip them unparsed.
    if (text === undefined || !text.includes(name)) continue;
    for (const doc of parseYamlDocuments(file, text).documents) {
      const object = asKubernetesObject(doc.value);
      if (!object) continue;
      const releaseName = getIn(object, 'spec', 'releaseName');
      const helmRelease = getIn(
        object,
        'spec',
        'source',
        'helm',
        'releaseName',
      );
      if (
        object.metadata.name === name ||
        releaseName === name ||
        helmRelease === name
      ) {
        found.push({ file, documentIndex: doc.index, object });
      }
    }
  }
  return found;
}

export interface Placement {
  found: Found;
  /** Kustomization chain root → includer; empty for a file no kustomization includes. */
  chain: string[];
  namespace?: string;
}

export function placementsOf(
  index: KustomizationIndex,
  found: Found,
): Placement[] {
  const manifestNamespace = getIn(found.object, 'metadata', 'namespace');
  const own =
    typeof manifestNamespace === 'string' ? manifestNamespace : undefined;
  const includers = includersOfFile(index, found.file);
  if (includers.length === 0) {
    // A folder with a kustomization is applied through it: a file it does
    // not list is not deployed (a leftover patch, a draft).
    const folder = found.file.includes('/')
      ? found.file.slice(0, found.file.lastIndexOf('/'))
      : '.';
    if (index.byFolder.has(folder)) return [];
    return [{ found, chain: [], namespace: own }];
  }
  return includers.flatMap(folder =>
    chainsFromRoots(index, folder).map(chain => ({
      found,
      chain,
      namespace: chainNamespace(index, chain, own),
    })),
  );
}

/** Every placement of every object named `name` (or released under that name). */
export async function locateObjectsNamed(
  tree: RepoTree,
  name: string,
): Promise<{ placements: Placement[]; index: KustomizationIndex }> {
  const [found, index] = await Promise.all([
    objectsNamed(tree, name),
    readKustomizations(tree),
  ]);
  // A patch file names its target but is not another copy of it.
  const patches = new Set([...index.byFolder.values()].flatMap(k => k.patches));
  return {
    placements: found
      .filter(f => !patches.has(f.file))
      .flatMap(f => placementsOf(index, f)),
    index,
  };
}
