import { posix } from 'path';
import { FsRepoTree, RepoTree } from '../repo/tree';
import { getIn, parseYamlDocuments } from '../repo/yamlObjects';

/**
 * The file names kustomize recognises as a kustomization, in its order
 * (kustomize api/konfig/general.go `RecognizedKustomizationFileNames`, v4.5.4).
 */
export const KUSTOMIZATION_FILE_NAMES = [
  'kustomization.yaml',
  'kustomization.yml',
  'Kustomization',
] as const;

/** Kustomization fields that inflate Helm charts (kustomize api/types/kustomization.go, v4.5.4). */
export const HELM_FIELDS = [
  'helmCharts',
  'helmChartInflationGenerator',
] as const;

/** Fields whose entries may name another kustomization folder. */
const REFERENCE_FIELDS = ['resources', 'bases', 'components'] as const;

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

/** @public */
export function isKustomizationFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (KUSTOMIZATION_FILE_NAMES as readonly string[]).includes(name);
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}

/** A remote target (git repository or URL): outside the tree, never a root question. */
function isRemote(entry: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ||
    /^(git@|github\.com\/|gitlab\.com\/|bitbucket\.org\/)/.test(entry) ||
    entry.includes('?ref=')
  );
}

/** `entry` of the kustomization in `folder`, as a repository folder; undefined when it leaves the tree. */
function resolveEntry(folder: string, entry: string): string | undefined {
  const joined = posix.normalize(posix.join(folder, entry.replace(/\/+$/, '')));
  if (joined === '..' || joined.startsWith('../') || posix.isAbsolute(joined)) {
    return undefined;
  }
  return joined;
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
  const files = (await tree.listFiles()).filter(isKustomizationFile);
  const folders = new Map<string, KustomizationFolder>();
  for (const file of files) {
    const folder = folderOf(file);
    // Two kustomization files in one folder is kustomize's error to report;
    // the first recognised name is the one it complains about first.
    const known = folders.get(folder);
    if (known) {
      const order = (p: string) =>
        KUSTOMIZATION_FILE_NAMES.indexOf(
          p.slice(p.lastIndexOf('/') + 1) as never,
        );
      if (order(known.file) <= order(file)) continue;
    }
    folders.set(folder, {
      folder,
      file,
      references: [],
      inflatesHelmCharts: false,
    });
  }
  for (const entry of folders.values()) {
    const { documents } = parseYamlDocuments(
      entry.file,
      (await tree.readFile(entry.file)) ?? '',
    );
    const kustomization = documents[0]?.value;
    const references = new Set<string>();
    for (const field of REFERENCE_FIELDS) {
      const list = getIn(kustomization, field);
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        if (typeof item !== 'string' || isRemote(item)) continue;
        const target = resolveEntry(entry.folder, item);
        if (
          target !== undefined &&
          target !== entry.folder &&
          folders.has(target)
        ) {
          references.add(target);
        }
      }
    }
    entry.references = [...references].sort();
    entry.inflatesHelmCharts = HELM_FIELDS.some(
      field => getIn(kustomization, field) !== undefined,
    );
  }
  return { folders, roots: rootsOf(folders) };
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
