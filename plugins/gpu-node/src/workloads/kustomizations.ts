/**
 * What each kustomization of a tree says about the manifests it deploys: the
 * files and folders it includes, the namespace it sets, its patches and Helm
 * charts. On top of the folder graph (`kustomize/roots.ts`), this answers
 * "which overlay deploys this file, in which namespace".
 */
import type { Kustomization } from '../kustomize/kustomization';
import {
  kustomizationGraphOf,
  readTreeKustomizations,
} from '../kustomize/roots';
import type { RepoTree } from '../repo/tree';

/** @public */
export interface KustomizationInfo {
  /** Repository-relative folder ('.' for the top). */
  folder: string;
  /** Path of its kustomization file. */
  file: string;
  /** `namespace:` it sets on everything it builds. */
  namespace?: string;
  /** Repository paths of the files it lists in `resources`. */
  files: string[];
  /** Kustomization folders it includes (`resources`, `bases`, `components`). */
  folders: string[];
  /** Repository paths of its strategic-merge / JSON patches. */
  patches: string[];
  /** Release names of its `helmCharts` (kustomize's Helm inflation). */
  helmReleases: string[];
  /** Its `replicas:` entries: workload name → count (kustomize sets them after its patches). */
  replicas: Record<string, number>;
}

/** @public */
export interface KustomizationIndex {
  byFolder: Map<string, KustomizationInfo>;
  /** Folders no kustomization includes: what a GitOps tool builds. */
  roots: string[];
}

/** The index of kustomizations the model read (`kustomize/roots.ts` `readTreeKustomizations`). */
export function kustomizationIndexOf(
  kustomizations: ReadonlyMap<string, Kustomization>,
): KustomizationIndex {
  const graph = kustomizationGraphOf(kustomizations);
  const byFolder = new Map<string, KustomizationInfo>();
  for (const k of kustomizations.values()) {
    byFolder.set(k.folder, {
      folder: k.folder,
      file: k.file,
      ...(k.namespace !== undefined ? { namespace: k.namespace } : {}),
      // A `resources` entry that is not a kustomization folder is a file.
      files: k.resources.filter(path => !kustomizations.has(path)),
      folders: graph.folders.get(k.folder)!.references,
      patches: k.patches.flatMap(p => (p.file !== undefined ? [p.file] : [])),
      helmReleases: k.helmReleases,
      replicas: Object.fromEntries(k.replicas),
    });
  }
  return { byFolder, roots: graph.roots };
}

/**
 *  Reads every kustomization of the tree.
 *
 * @public
 */
export async function readKustomizations(
  tree: RepoTree,
): Promise<KustomizationIndex> {
  return kustomizationIndexOf(await readTreeKustomizations(tree));
}

/** Folders whose kustomization lists `file` in its resources. */
export function includersOfFile(
  index: KustomizationIndex,
  file: string,
): string[] {
  return [...index.byFolder.values()]
    .filter(k => k.files.includes(file))
    .map(k => k.folder)
    .sort();
}

/**
 * Every chain of kustomizations from a root down to `folder`
 * (`[root, …, folder]`), following `resources` / `bases` / `components`.
 */
export function chainsFromRoots(
  index: KustomizationIndex,
  folder: string,
): string[][] {
  const parents = new Map<string, string[]>();
  for (const k of index.byFolder.values()) {
    for (const child of k.folders) {
      parents.set(child, [...(parents.get(child) ?? []), k.folder]);
    }
  }
  const chains: string[][] = [];
  const walk = (current: string, below: string[], seen: Set<string>) => {
    const ups = parents.get(current) ?? [];
    if (ups.length === 0) {
      chains.push([current, ...below]);
      return;
    }
    for (const up of ups) {
      if (seen.has(up)) continue; // a cycle: kustomize refuses it anyway
      walk(up, [current, ...below], new Set([...seen, up]));
    }
  };
  walk(folder, [], new Set([folder]));
  return chains;
}

/**
 * The namespace a chain deploys into: the outermost kustomization that sets
 * one wins (kustomize's namespace transformer runs at every level, the root's
 * last), else the manifest's own.
 */
export function chainNamespace(
  index: KustomizationIndex,
  chain: readonly string[],
  manifestNamespace: string | undefined,
): string | undefined {
  for (const folder of chain) {
    const namespace = index.byFolder.get(folder)?.namespace;
    if (namespace) return namespace;
  }
  return manifestNamespace;
}
