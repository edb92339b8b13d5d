/**
 * Every Deployment, StatefulSet, Job and CronJob of one workload folder, GPU
 * or not, as it is deployed: once per kustomization of the folder that
 * deploys it, with that kustomization's namespace and the replica count its
 * patches leave. What the scaffolder form offers as existing workloads
 * (their containers) and what the plan preview compares the requested
 * replicas with.
 *
 * A reading of the folder, not a `kustomize build`: the actions build with
 * the real kustomize when they run and stay the authority. Read here through
 * the kustomization model (`kustomize/`), as kustomize applies them
 * (kustomize api/krusty, v5): `resources` and `bases`/`components` between
 * the folder's kustomizations, `namespace:` (the outermost kustomization
 * that sets one wins), every patch form in kustomize's order
 * (`patchesStrategicMerge`, `patches`, `patchesJson6902`; files or inline;
 * strategic merge or JSON 6902; by the name the patch carries or by its
 * `target:`), a kustomization's patches after those of the kustomizations it
 * includes, then the `replicas:` field. Kustomizations outside the folder
 * and name prefixes are not; a target's label and annotation selectors are
 * not evaluated (the patch is taken to apply).
 */
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
import { isKustomizationFile } from '../kustomize/fileNames';
import type { Kustomization } from '../kustomize/kustomization';
import {
  patchObject,
  readPatches,
  type ReadPatch,
} from '../kustomize/patchObject';
import { readTreeKustomizations } from '../kustomize/roots';
import { MemoryRepoTree } from '../repo/tree';
import type { PlainObject } from '../repo/yamlObjects';
import {
  kustomizationIndexOf,
  type KustomizationIndex,
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
  const kustomizations = [...files.keys()].some(isKustomizationFile)
    ? await readTreeKustomizations(new MemoryRepoTree(files))
    : new Map<string, Kustomization>();
  const index = kustomizationIndexOf(kustomizations);
  const patchFiles = new Set(
    [...index.byFolder.values()].flatMap(k => k.patches),
  );
  const deployed = deployedViews(kustomizations, files);
  const out = documents
    // A patch names its target but is not another copy of it.
    .filter(document => !patchFiles.has(document.path))
    .flatMap(document =>
      deployedEntries(document, index, deployed, layoutNamespace),
    );
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

/** How a workload looks once the kustomizations of a chain deployed it. */
type DeployedView = (
  document: WorkloadDocument,
  chain: string[],
) => WorkloadView;

/**
 * The object as the kustomizations of `chain` leave it, innermost first:
 * patches, then `replicas:`. Each folder's patches are read once.
 */
function deployedViews(
  kustomizations: Map<string, Kustomization>,
  files: Map<string, string>,
): DeployedView {
  const patchesByFolder = new Map<string, ReadPatch[]>();
  const patchesOf = (folder: string) => {
    if (!patchesByFolder.has(folder)) {
      const read = readPatches(kustomizations.get(folder)!, f => files.get(f));
      patchesByFolder.set(folder, read);
    }
    return patchesByFolder.get(folder)!;
  };
  return (document, chain) => {
    let object: PlainObject = document.object;
    for (const folder of [...chain].reverse()) {
      for (const patch of patchesOf(folder)) {
        object = patchObject(object, patch);
      }
      const count = kustomizations.get(folder)!.replicas.get(document.name);
      if (Number.isInteger(count) && scaledByKustomizeReplicas(document.kind)) {
        object = strategicMerge(object, {
          spec: { replicas: count },
        }) as PlainObject;
      }
    }
    return viewWorkload(document.kind, object);
  };
}

/**
 * A workload once per chain of kustomizations that deploys it (in the
 * namespace the outermost one that sets one gives), or as written when none
 * includes it; else in its own namespace, the layout's or `default`.
 */
function deployedEntries(
  document: WorkloadDocument,
  index: KustomizationIndex,
  deployed: DeployedView,
  layoutNamespace: (path: string) => string | undefined,
): RepositoryWorkload[] {
  const own = record(document.object.metadata)?.namespace;
  const namespace =
    (typeof own === 'string' ? own : undefined) ??
    layoutNamespace(document.path) ??
    'default';
  const chains = chainsIncluding(index, document.path);
  if (chains.length === 0) {
    // No kustomization of the folder includes it: applied as written.
    const view = viewWorkload(document.kind, document.object);
    return [repositoryWorkload(document, view, namespace)];
  }
  return chains.map(chain => {
    const chainNamespace = chain
      .map(folder => index.byFolder.get(folder)!.namespace)
      .find(n => n !== undefined);
    return repositoryWorkload(
      document,
      deployed(document, chain),
      chainNamespace ?? namespace,
      chain[0],
    );
  });
}

function repositoryWorkload(
  document: WorkloadDocument,
  view: WorkloadView,
  deployedTo: string,
  overlay?: string,
): RepositoryWorkload {
  return {
    kind: document.kind,
    name: document.name,
    namespace: deployedTo,
    path: document.path,
    containers: view.containers.map(c => c.name),
    replicas: view.replicas,
    ...(overlay !== undefined ? { overlay } : {}),
    ...ownSelection(view),
  };
}
