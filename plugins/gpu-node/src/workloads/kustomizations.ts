/**
 * What each kustomization of a tree says about the manifests it deploys: the
 * files and folders it includes, the namespace it sets, its patches and Helm
 * charts. On top of the folder graph (`kustomize/roots.ts`), this answers
 * "which overlay deploys this file, in which namespace".
 */
import { posix } from 'path';
import { readKustomizationGraph } from '../kustomize/roots';
import type { RepoTree } from '../repo/tree';
import { getIn, isPlainObject, parseYamlDocuments } from '../repo/yamlObjects';

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

function join(folder: string, entry: string): string | undefined {
  const joined = posix.normalize(
    posix.join(folder === '.' ? '' : folder, entry),
  );
  if (joined === '..' || joined.startsWith('../') || posix.isAbsolute(joined)) {
    return undefined;
  }
  return joined.replace(/\/+$/, '');
}

function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : [];
}

/**
 *  Reads every kustomization of the tree.
 *
 * @public
 */
export async function readKustomizations(
  tree: RepoTree,
): Promise<KustomizationIndex> {
  const graph = await readKustomizationGraph(tree);
  const byFolder = new Map<string, KustomizationInfo>();
  for (const entry of graph.folders.values()) {
    const text = (await tree.readFile(entry.file)) ?? '';
    const value = parseYamlDocuments(entry.file, text).documents[0]?.value;
    const files: string[] = [];
    for (const item of strings(getIn(value, 'resources'))) {
      const target = join(entry.folder, item);
      if (target !== undefined && !graph.folders.has(target)) {
        files.push(target);
      }
    }
    const patches: string[] = [];
    for (const patch of [
      ...(Array.isArray(getIn(value, 'patches'))
        ? (getIn(value, 'patches') as unknown[])
        : []),
      ...strings(getIn(value, 'patchesStrategicMerge')),
      ...(Array.isArray(getIn(value, 'patchesJson6902'))
        ? (getIn(value, 'patchesJson6902') as unknown[])
        : []),
    ]) {
      const path = typeof patch === 'string' ? patch : getIn(patch, 'path');
      const target =
        typeof path === 'string' ? join(entry.folder, path) : undefined;
      if (target !== undefined) patches.push(target);
    }
    const helmReleases = (
      Array.isArray(getIn(value, 'helmCharts'))
        ? (getIn(value, 'helmCharts') as unknown[])
        : []
    )
      .filter(isPlainObject)
      .map(chart => String(chart.releaseName ?? chart.name ?? ''))
      .filter(Boolean);
    const namespace = getIn(value, 'namespace');
    byFolder.set(entry.folder, {
      folder: entry.folder,
      file: entry.file,
      ...(typeof namespace === 'string' && namespace !== ''
        ? { namespace }
        : {}),
      files,
      folders: entry.references,
      patches,
      helmReleases,
      replicas: Object.fromEntries(
        (Array.isArray(getIn(value, 'replicas'))
          ? (getIn(value, 'replicas') as unknown[])
          : []
        )
          .filter(isPlainObject)
          .filter(r => typeof r.name === 'string')
          .map(r => [String(r.name), Number(r.count)]),
      ),
    });
  }
  return { byFolder, roots: graph.roots };
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
