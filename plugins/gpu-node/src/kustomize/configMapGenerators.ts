/**
 * A kustomization's `configMapGenerator` entries, their files resolved to
 * repository paths as kustomize resolves them (`entryPaths.ts`): a
 * `key=path` entry keeps its key, a plain `path` entry uses the file name
 * (kubernetes-sigs/kustomize api/kv/kv.go, v4.5.4 and v5.x). A file outside
 * the repository is kustomize's to refuse, not listed.
 */
import { getIn } from '../repo/yamlObjects';
import { resolveEntry } from './entryPaths';
import { kustomizationFolder } from './fileNames';

/** One configMapGenerator entry. */
export interface GeneratorEntry {
  name: string;
  namespace?: string;
  /** Repository path of each listed file → its ConfigMap key. */
  files: Map<string, string>;
}

function generatorFiles(folder: string, list: unknown): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of Array.isArray(list) ? list.map(String) : []) {
    const eq = entry.indexOf('=');
    const rel = eq < 0 ? entry : entry.slice(eq + 1);
    const key =
      eq < 0 ? rel.slice(rel.lastIndexOf('/') + 1) : entry.slice(0, eq);
    const path = resolveEntry(folder, rel);
    if (path !== undefined) files.set(path, key);
  }
  return files;
}

/** The configMapGenerator of the kustomization at `kustomizationPath` whose document is `kustomization`. */
export function configMapGenerators(
  kustomizationPath: string,
  kustomization: unknown,
): GeneratorEntry[] {
  const generators = getIn(kustomization, 'configMapGenerator');
  if (!Array.isArray(generators)) return [];
  const defaultNamespace = getIn(kustomization, 'namespace');
  const out: GeneratorEntry[] = [];
  for (const generator of generators) {
    const name = getIn(generator, 'name');
    if (typeof name !== 'string') continue;
    const namespace = getIn(generator, 'namespace') ?? defaultNamespace;
    out.push({
      name,
      ...(typeof namespace === 'string' ? { namespace } : {}),
      files: generatorFiles(
        kustomizationFolder(kustomizationPath),
        getIn(generator, 'files'),
      ),
    });
  }
  return out;
}
