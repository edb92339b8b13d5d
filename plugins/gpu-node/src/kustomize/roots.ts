import { FsRepoTree, RepoTree } from '../repo/tree';
import {
  fileNamePreference,
  isKustomizationFile,
  kustomizationFolder,
} from './fileNames';
import {
  kustomizationValue,
  readKustomization,
  type Kustomization,
} from './kustomization';
import { processTurns, filterInTurns } from '../repo/eventLoopTurns';

export { HELM_FIELDS } from './kustomization';
export { isKustomizationFile, KUSTOMIZATION_FILE_NAMES } from './fileNames';

/**
 *  One folder holding a kustomization, and the kustomization folders it references.
 *
 * @public
 */
export interface KustomizationFolder {
  /** Repository-relative folder, '.' for the top. */
  folder: string;
  /** Repository-relative path of its kustomization file. */
  file: string;
  /** Kustomization folders it names in resources / bases / components. */
  references: string[];
  /**
   * Declares Helm charts to inflate (`helmCharts`, or the older
   * `helmChartInflationGenerator`): kustomize builds it only with
   * `--enable-helm`, a helm binary and the chart's repository.
   */
  inflatesHelmCharts: boolean;
}

/** @public */
export interface KustomizationGraph {
  folders: Map<string, KustomizationFolder>;
  /** Folders that nothing references: what `kustomize build` is run on. */
  roots: string[];
}

/**
 * Every kustomization file of the tree, read, by folder. Two kustomization
 * files in one folder is kustomize's error to report; the first recognised
 * name is the one it complains about first.
 */
export async function readTreeKustomizations(
  tree: RepoTree,
): Promise<Map<string, Kustomization>> {
  const chosen = new Map<string, string>();
  // A scale checkout lists 131k paths and holds thousands of kustomizations: in turns.
  const files = await filterInTurns(
    await tree.listFiles(),
    isKustomizationFile,
  );
  for (const file of files) {
    const known = chosen.get(kustomizationFolder(file));
    if (known && fileNamePreference(known) <= fileNamePreference(file)) {
      continue;
    }
    chosen.set(kustomizationFolder(file), file);
  }
  const out = new Map<string, Kustomization>();
  for (const [folder, file] of chosen) {
    await processTurns();
    const text = (await tree.readFile(file)) ?? '';
    out.set(folder, readKustomization(file, kustomizationValue(file, text)));
  }
  return out;
}

/** The folder graph of kustomizations read by `readTreeKustomizations`. */
export function kustomizationGraphOf(
  kustomizations: ReadonlyMap<string, Kustomization>,
): KustomizationGraph {
  const folders = new Map<string, KustomizationFolder>();
  for (const k of kustomizations.values()) {
    const references = k.buildsFrom.filter(
      target => target !== k.folder && kustomizations.has(target),
    );
    folders.set(k.folder, {
      folder: k.folder,
      file: k.file,
      references: [...new Set(references)].sort(),
      inflatesHelmCharts: k.inflatesHelmCharts,
    });
  }
  return { folders, roots: rootsOf(folders) };
}

/**
 * Every kustomization of the tree and what each references. A file that is
 * not YAML still counts as a kustomization (kustomize will say why it does
 * not build); it just references nothing we can read.
 *
 * @public
 */
export async function readKustomizationGraph(
  treeOrDir: RepoTree | string,
): Promise<KustomizationGraph> {
  const tree =
    typeof treeOrDir === 'string' ? new FsRepoTree(treeOrDir) : treeOrDir;
  return kustomizationGraphOf(await readTreeKustomizations(tree));
}

/**
 * Folders no other kustomization references. A kustomization reached from
 * none of those (a reference cycle, which kustomize refuses) is a root too,
 * so its build error is reported rather than never looked at.
 */
function rootsOf(folders: Map<string, KustomizationFolder>): string[] {
  const referenced = new Set<string>();
  for (const entry of folders.values())
    entry.references.forEach(r => referenced.add(r));
  const roots = [...folders.keys()].filter(f => !referenced.has(f)).sort();
  const reached = new Set<string>();
  const visit = (folder: string) => {
    if (reached.has(folder)) return;
    reached.add(folder);
    folders.get(folder)?.references.forEach(visit);
  };
  roots.forEach(visit);
  for (const folder of [...folders.keys()].sort()) {
    if (reached.has(folder)) continue;
    roots.push(folder);
    visit(folder);
  }
  return roots.sort();
}

/**
 *  The folders `root` builds from: itself and every kustomization it reaches.
 *
 * @public
 */
export function foldersBuiltBy(
  graph: KustomizationGraph,
  root: string,
): string[] {
  const out = new Set<string>();
  const visit = (folder: string) => {
    if (out.has(folder)) return;
    out.add(folder);
    graph.folders.get(folder)?.references.forEach(visit);
  };
  visit(root);
  return [...out].sort();
}

/**
 * Every folder with a kustomization that no other kustomization references
 * through `resources`, `bases` or `components` (paths relative to the
 * referencing folder): the folders a GitOps tool builds. Repository-relative,
 * '.' for the top, sorted.
 */
export async function findKustomizationRoots(
  treeOrDir: RepoTree | string,
): Promise<string[]> {
  return (await readKustomizationGraph(treeOrDir)).roots;
}
