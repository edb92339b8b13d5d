/**
 * Every Deployment, StatefulSet, Job and CronJob of one workload folder, GPU
 * or not, as it is deployed: once per kustomization of the folder that
 * deploys it, with that kustomization's namespace and the replica count its
 * patches leave. What the scaffolder form offers as existing workloads
 * (their containers) and what the plan preview compares the requested
 * replicas with.
 *
 * A reading of the folder, not a `kustomize build`: the actions build with
 * the real kustomize when they run and stay the authority. Read here, as
 * kustomize applies them (kustomize api/krusty, v5): `resources` and
 * `bases`/`components` between the folder's kustomizations, `namespace:`
 * (the outermost kustomization that sets one wins), strategic-merge patches
 * that name their target, in files or inline (a kustomization's patches
 * after those of the kustomizations it includes), and the `replicas:` field.
 * Kustomizations outside the folder, JSON 6902 patches, a `target:` selector
 * and name prefixes are not.
 */
import { posix } from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  compareStrings,
  isWorkloadKind,
  readPlainYamlDocuments,
  scaledByKustomizeReplicas,
  strategicMerge,
  viewWorkload,
  type RepositoryWorkload,
  type WorkloadKind,
  type WorkloadView,
  WORKLOAD_KINDS,
} from '@gpu-gitops/plugin-gpu-common';
import { isKustomizationFile } from '../kustomize/roots';
import { MemoryRepoTree } from '../repo/tree';
import {
  readKustomizations,
  type KustomizationIndex,
  type KustomizationInfo,
} from './kustomizations';

/** A file can hold a workload only if it says so: most are skipped unparsed. */
const MENTIONS_WORKLOAD_KIND = new RegExp(
  `\\bkind:\\s*['"]?(?:${WORKLOAD_KINDS.join('|')})\\b`,
);

interface WorkloadDocument {
  path: string;
  kind: WorkloadKind;
  name: string;
  object: Record<string, unknown>;
}

/**
 * The documents of a YAML file as data (the fast reader, else `yaml`). A file
 * that does not parse yields nothing: the GPU reader of the same folder
 * already reports it as skipped.
 */
function readDocuments(text: string): unknown[] {
  const plain = readPlainYamlDocuments(text);
  if (plain) return plain;
  try {
    return parseAllDocuments(text).flatMap(doc =>
      doc.errors.length > 0 ? [] : [doc.toJS({ maxAliasCount: 100 })],
    );
  } catch {
    return [];
  }
}

/**
 * The documents of files the caller parsed already (their values by path,
 * only for files that parsed whole): a 20k-file first index parses each once.
 *
 * @public
 */
export type ParsedFiles = ReadonlyMap<string, readonly unknown[]>;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** `value` of a file at `path` as a workload (or a patch of one), if it is one. */
function workloadDocument(
  path: string,
  value: unknown,
): WorkloadDocument | undefined {
  const object = record(value);
  const name = record(object?.metadata)?.name;
  return object && isWorkloadKind(object.kind) && typeof name === 'string'
    ? { path, kind: object.kind, name, object }
    : undefined;
}

function workloadDocuments(
  files: Map<string, string>,
  parsed: ParsedFiles,
): WorkloadDocument[] {
  const out: WorkloadDocument[] = [];
  for (const [path, text] of files) {
    if (!MENTIONS_WORKLOAD_KIND.test(text)) continue;
    for (const value of parsed.get(path) ?? readDocuments(text)) {
      const document = workloadDocument(path, value);
      if (document) out.push(document);
    }
  }
  return out;
}

/** A kustomization's patch: a file of the tree, or a strategic-merge patch written inline. */
type PatchSource = { file: string } | { inline: WorkloadDocument };

/**
 * A kustomization's patches in the order kustomize applies its `patches`
 * list (files and inline strategic-merge patches alike; an inline JSON 6902
 * patch is a list of operations, not read), then its other patch files.
 */
function patchSources(
  kustomization: unknown,
  info: KustomizationInfo,
): PatchSource[] {
  const sources: PatchSource[] = [];
  const listed = record(kustomization)?.patches;
  for (const entry of Array.isArray(listed) ? listed : []) {
    const { path, patch } = record(entry) ?? {};
    if (typeof patch === 'string') {
      for (const value of readDocuments(patch)) {
        const inline = workloadDocument(info.file, value);
        if (inline) sources.push({ inline });
      }
    } else if (typeof path === 'string') {
      const file = posix.join(info.folder === '.' ? '' : info.folder, path);
      if (info.patches.includes(file)) sources.push({ file });
    }
  }
  const listedFiles = new Set(sources.map(s => ('file' in s ? s.file : '')));
  for (const file of info.patches) {
    if (!listedFiles.has(file)) sources.push({ file });
  }
  return sources;
}

/** Every chain of the folder's kustomizations `[root, …, includer]` whose last one lists `file` in its resources. */
function chainsIncluding(index: KustomizationIndex, file: string): string[][] {
  const chains: string[][] = [];
  const walk = (folder: string, above: string[]) => {
    const kustomization = index.byFolder.get(folder);
    if (!kustomization) return;
    const chain = [...above, folder];
    if (kustomization.files.includes(file)) chains.push(chain);
    for (const child of kustomization.folders) {
      // A cycle: kustomize refuses it; do not walk it forever.
      if (!chain.includes(child)) walk(child, chain);
    }
  };
  for (const root of index.roots) walk(root, []);
  return chains;
}

/** The `replicas:` entries of a kustomization: name -> count. */
function replicasField(kustomization: unknown): Map<string, number> {
  const out = new Map<string, number>();
  const entries = record(kustomization)?.replicas;
  for (const entry of Array.isArray(entries) ? entries : []) {
    const { name, count } = record(entry) ?? {};
    if (typeof name === 'string' && typeof count === 'number') {
      out.set(name, count);
    }
  }
  return out;
}

/** The workload's own node selection, when it has one (the preview says what the patch takes out). */
function ownSelection(
  view: WorkloadView,
): Pick<RepositoryWorkload, 'nodeSelector' | 'requiredNodeSelectorTerms'> {
  return {
    ...(Object.keys(view.nodeSelector).length > 0
      ? { nodeSelector: view.nodeSelector }
      : {}),
    ...(view.requiredNodeSelectorTerms?.length
      ? { requiredNodeSelectorTerms: view.requiredNodeSelectorTerms }
      : {}),
  };
}

/**
 * The workload objects of one workload folder (`files`: the text of every
 * file of the folder by path), sorted by namespace, kind, name and overlay.
 * `layoutNamespace` is the namespace the repository layout gives a file's
 * folder (`apps/<namespace>/…`), the last resort, as for GPU workloads.
 *
 * @public
 */
export async function readWorkloadObjects(
  layoutNamespace: (path: string) => string | undefined,
  files: Map<string, string>,
  parsed: ParsedFiles = new Map(),
): Promise<RepositoryWorkload[]> {
  const documents = workloadDocuments(files, parsed);
  if (documents.length === 0) return [];
  // Plain-manifest folders (no kustomization) skip reading kustomizations.
  const index: KustomizationIndex = [...files.keys()].some(isKustomizationFile)
    ? await readKustomizations(new MemoryRepoTree(files))
    : { byFolder: new Map(), roots: [] };
  const patchFiles = new Set(
    [...index.byFolder.values()].flatMap(k => k.patches),
  );
  const effectsByFolder = new Map<
    string,
    { patches: PatchSource[]; replicas: Map<string, number> }
  >();
  const effectsOf = (folder: string) => {
    let effects = effectsByFolder.get(folder);
    if (!effects) {
      const info = index.byFolder.get(folder)!;
      const text = files.get(info.file);
      const kustomization =
        text === undefined ? undefined : readDocuments(text)[0];
      effects = {
        patches: patchSources(kustomization, info),
        replicas: replicasField(kustomization),
      };
      effectsByFolder.set(folder, effects);
    }
    return effects;
  };
  const patchesOf = (source: PatchSource) =>
    'inline' in source
      ? [source.inline]
      : documents.filter(d => d.path === source.file);
  /** The object as the kustomizations of `chain` leave it, innermost first. */
  const deployed = (document: WorkloadDocument, chain: string[]) => {
    let object: unknown = document.object;
    for (const folder of [...chain].reverse()) {
      const effects = effectsOf(folder);
      for (const patch of effects.patches.flatMap(patchesOf)) {
        if (patch.kind === document.kind && patch.name === document.name) {
          object = strategicMerge(object, patch.object);
        }
      }
      const count = effects.replicas.get(document.name);
      if (count !== undefined && scaledByKustomizeReplicas(document.kind)) {
        object = strategicMerge(object, { spec: { replicas: count } });
      }
    }
    return viewWorkload(document.kind, object);
  };

  const out: RepositoryWorkload[] = [];
  for (const document of documents) {
    // A patch names its target but is not another copy of it.
    if (patchFiles.has(document.path)) continue;
    const own = record(document.object.metadata)?.namespace;
    const namespace =
      (typeof own === 'string' ? own : undefined) ??
      layoutNamespace(document.path) ??
      'default';
    const entry = (
      view: WorkloadView,
      deployedTo: string,
      overlay?: string,
    ): RepositoryWorkload => ({
      kind: document.kind,
      name: document.name,
      namespace: deployedTo,
      path: document.path,
      containers: view.containers.map(c => c.name),
      replicas: view.replicas,
      ...(overlay !== undefined ? { overlay } : {}),
      ...ownSelection(view),
    });
    const chains = chainsIncluding(index, document.path);
    if (chains.length === 0) {
      // No kustomization of the folder includes it: applied as written.
      out.push(entry(viewWorkload(document.kind, document.object), namespace));
      continue;
    }
    for (const chain of chains) {
      const chainNamespace = chain
        .map(folder => index.byFolder.get(folder)!.namespace)
        .find(n => n !== undefined);
      out.push(
        entry(deployed(document, chain), chainNamespace ?? namespace, chain[0]),
      );
    }
  }
  // Two ways to one overlay (kustomize refuses the duplicate): listed once.
  const unique = [...new Map(out.map(w => [JSON.stringify(w), w])).values()];
  return unique.sort(
    (a, b) =>
      compareStrings(a.namespace, b.namespace) ||
      compareStrings(a.kind, b.kind) ||
      compareStrings(a.name, b.name) ||
      compareStrings(a.overlay ?? '', b.overlay ?? '') ||
      compareStrings(a.path, b.path),
  );
}
