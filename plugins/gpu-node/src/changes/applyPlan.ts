import { posix } from 'path';
import { isMap, YAMLMap } from 'yaml';
import {
  ClusterProfile,
  GpuInputError,
  KubernetesObject,
  ManifestSet,
  Plan,
} from '@gpu-gitops/plugin-gpu-common';
import {
  clusterKustomizationPath,
  devicePluginConfigPath,
  LayoutInput,
  layoutPrefix,
  migConfigPath,
  nodePoolPath,
  requestPath,
  resolveLayout,
  ResolvedRepoLayout,
  workloadDirPath,
} from '../layout/layout';
import type { RepoTree } from '../repo/tree';
import { deepEqual, sortKeysDeep, toYaml } from './canonical';
import { conflictError } from './conflict';
import {
  addConfigMapFile,
  addPatch,
  addResource,
  openKustomization,
  relativeTo,
} from './kustomization';
import { StagedTree } from './stagedTree';
import type { ChangeSet } from './types';
import { sortMap, syncNode, YamlFile } from './yamlFile';

export interface ApplyPlanInput {
  plan: Plan;
  manifests: ManifestSet;
  /** Path templates; the default layout when omitted. */
  layout?: LayoutInput;
  cluster: ClusterProfile;
}

/** Key of the mig-parted file inside its ConfigMap (what the MIG manager reads). */
export const MIG_CONFIG_KEY = 'config.yaml';
/** File name of the strategic-merge patch for an existing workload. */
export const WORKLOAD_PATCH_FILE = 'gpu-patch.yaml';
const KUBERNETES_ID_LABEL = 'backstage.io/kubernetes-id';
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet']);

/**
 * The merge engine: computes exactly the file edits that put a plan into a
 * GitOps repository tree. Existing files are edited in place (comments and
 * unrelated content survive); the result is idempotent and deterministic.
 * Throws a GpuInputError (rule `conflict`) instead of overwriting a named
 * entry that holds other content. Nothing is written to `tree`.
 */
export async function applyPlan(
  tree: RepoTree,
  input: ApplyPlanInput,
): Promise<ChangeSet> {
  const { plan, manifests, cluster } = input;
  const layout = resolveLayout(input.layout);
  if (plan.cluster !== cluster.name) {
    throw new GpuInputError([
      {
        path: 'cluster',
        rule: 'cluster-mismatch',
        message: `the plan targets cluster "${plan.cluster}" but the cluster profile is "${cluster.name}"`,
      },
    ]);
  }
  const staged = new StagedTree(tree);
  const kustomizationPath = clusterKustomizationPath(layout, cluster.name);
  const kustomization = openKustomization(
    kustomizationPath,
    await staged.read(kustomizationPath),
  );
  const createdKustomizations: string[] = [];
  if (!kustomization.exists) createdKustomizations.push(kustomizationPath);

  // Static clusters (no Karpenter) get no pool objects, hence no pool file.
  let poolTaints: PoolTaint[] = [];
  if (manifests.pool.objects.length > 0) {
    const pool = await applyPool(staged, layout, input);
    poolTaints = pool.taints;
    await listResource(staged, kustomization, pool.path);
  }

  if (manifests.devicePluginConfig) {
    const { name, config } = manifests.devicePluginConfig;
    const path = devicePluginConfigPath(layout, cluster.name, name);
    await applyNamedFile(
      staged,
      path,
      config,
      `device-plugin config "${name}"`,
    );
    addConfigMapFile(
      kustomization,
      cluster.devicePluginConfigMap,
      name,
      relativeTo(kustomizationPath, path),
    );
  }

  if (manifests.migConfig) {
    const path = migConfigPath(layout, cluster.name);
    await applyMigConfig(
      staged,
      path,
      manifests.migConfig.name,
      manifests.migConfig.entries,
    );
    addConfigMapFile(
      kustomization,
      cluster.migPartedConfigMap,
      MIG_CONFIG_KEY,
      relativeTo(kustomizationPath, path),
    );
  }

  await writeIfModified(staged, kustomization);

  const workloadKustomization = await applyWorkload(
    staged,
    layout,
    input,
    poolTaints,
  );
  if (workloadKustomization) createdKustomizations.push(workloadKustomization);

  await applyRequest(staged, layout, plan);

  // A new folder is only deployed when its parent kustomization lists it.
  for (const child of createdKustomizations) {
    await listInParent(staged, child);
  }
  return staged.toChangeSet();
}

async function writeIfModified(
  staged: StagedTree,
  file: YamlFile,
): Promise<void> {
  const content = file.newContent();
  if (content !== undefined) await staged.write(file.path, content);
}

function objectsToYaml(objects: unknown[]): string {
  return objects
    .map((o, i) => (i > 0 ? `---\n${toYaml(o)}` : toYaml(o)))
    .join('');
}

/** Finds the file holding NodePool `name`: the layout path first, else any file in the pool folder. */
async function findPoolFile(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  name: string,
): Promise<YamlFile | undefined> {
  const preferred = nodePoolPath(layout, cluster, name);
  const candidates = [
    preferred,
    ...(
      await staged.list(layoutPrefix(layout, 'nodePool', { cluster }, 'pool'))
    ).filter(p => p !== preferred && /\.ya?ml$/.test(p)),
  ];
  for (const path of candidates) {
    const text = await staged.read(path);
    if (text === undefined) continue;
    let file: YamlFile;
    try {
      file = YamlFile.parse(path, text);
    } catch (e) {
      if (path === preferred) throw e;
      continue; // an unrelated broken file is not ours to fix
    }
    if (file.findObject('NodePool', name)) return file;
    if (path === preferred && file.exists && text.trim() !== '') {
      throw conflictError(
        path,
        `${path} exists but holds no NodePool "${name}"`,
      );
    }
  }
  return undefined;
}

/** Names of EC2NodeClasses (etc.) already defined in other pool files, so a shared class is written once. */
async function sharedObjectsElsewhere(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  exceptPath: string,
): Promise<Set<string>> {
  // The pool folder and the whole cluster GPU folder (the bootstrap puts the
  // node class in `nodeclasses/`): one object id twice breaks `kustomize build`.
  const folders = new Set([
    layoutPrefix(layout, 'nodePool', { cluster }, 'pool'),
    `${posix.dirname(clusterKustomizationPath(layout, cluster))}/`,
  ]);
  const paths = new Set<string>();
  for (const folder of folders) {
    for (const path of await staged.list(folder)) paths.add(path);
  }
  const found = new Set<string>();
  for (const path of [...paths].sort()) {
    if (path === exceptPath || !/\.ya?ml$/.test(path)) continue;
    try {
      for (const value of YamlFile.parse(
        path,
        await staged.read(path),
      ).values()) {
        const obj = value as KubernetesObject | null;
        if (obj?.kind === 'EC2NodeClass' && obj.metadata?.name) {
          found.add(`EC2NodeClass/${obj.metadata.name}`);
        }
      }
    } catch {
      // unparseable neighbours are reported by validateGitOpsTree, not here
    }
  }
  return found;
}

const objectKey = (o: KubernetesObject) => `${o.kind}/${o.metadata.name}`;

function limitValue(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

function withoutLimits(o: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(o ?? null));
  if (copy?.spec) delete copy.spec.limits;
  return copy;
}

/**
 * Writes the pool's NodePool (+ NodeOverlays, + EC2NodeClass). An existing
 * pool keeps its file; only its limits rise (never fall: other workloads may
 * count on them) and missing companion objects are appended.
 */
async function applyPool(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  { plan, manifests, cluster }: ApplyPlanInput,
): Promise<{ path: string; taints: PoolTaint[] }> {
  const name = manifests.pool.name;
  const objects = manifests.pool.objects;
  const nodePool = objects.find(o => o.kind === 'NodePool');
  if (!nodePool) {
    throw new GpuInputError([
      {
        path: 'manifests.pool',
        rule: 'missing-nodepool',
        message: `the manifest set has no NodePool for pool "${name}"`,
      },
    ]);
  }
  const existing = await findPoolFile(staged, layout, cluster.name, name);
  const path = existing?.path ?? nodePoolPath(layout, cluster.name, name);
  const shared = await sharedObjectsElsewhere(
    staged,
    layout,
    cluster.name,
    path,
  );
  const wanted = objects.filter(
    o => o.kind !== 'EC2NodeClass' || !shared.has(objectKey(o)),
  );

  if (!existing) {
    await staged.write(path, objectsToYaml(wanted));
    return { path, taints: [] };
  }

  const doc = existing.findObject('NodePool', name)!;
  const taints = existingTaints(doc.toJS());
  if (
    !plan.pool.reused &&
    !deepEqual(withoutLimits(doc.toJS()), withoutLimits(nodePool))
  ) {
    throw conflictError(
      path,
      `NodePool "${name}" already exists in ${path} with different content; it was not planned for reuse, so it is not overwritten`,
    );
  }
  const limits = {
    ...plan.pool.limits,
    ...((nodePool.spec as { limits?: Record<string, unknown> } | undefined)
      ?.limits ?? {}),
  };
  for (const [resource, value] of Object.entries(limits).sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    const raw = doc.getIn(['spec', 'limits', resource]);
    const current = limitValue(raw);
    const next = limitValue(value);
    // A quantity we cannot compare (e.g. `2k`) was set by hand: leave it.
    if (next === undefined || (raw !== undefined && current === undefined)) {
      continue;
    }
    if (current !== undefined && current >= next) continue;
    doc.setIn(['spec', 'limits', resource], value);
    existing.modified = true;
  }
  for (const obj of wanted) {
    if (
      obj.kind === 'NodePool' ||
      existing.findObject(obj.kind, obj.metadata.name)
    )
      continue;
    existing.append(obj);
  }
  // A reused pool takes the planned config labels: a config whose content
  // changed got a new key, and only a label change makes the nodes reload it.
  const plannedLabels = (
    nodePool.spec as
      | { template?: { metadata?: { labels?: Record<string, unknown> } } }
      | undefined
  )?.template?.metadata?.labels;
  for (const [key, value] of Object.entries(plannedLabels ?? {}).sort(
    ([a], [b]) => (a < b ? -1 : 1),
  )) {
    const labelPath = ['spec', 'template', 'metadata', 'labels', key];
    if (doc.getIn(labelPath) === value) continue;
    doc.setIn(labelPath, value);
    existing.modified = true;
  }
  await writeIfModified(staged, existing);
  return { path, taints };
}

interface PoolTaint {
  key: string;
  value?: string;
  effect: string;
}

function existingTaints(nodePool: unknown): PoolTaint[] {
  const taints = (
    nodePool as { spec?: { template?: { spec?: { taints?: unknown } } } }
  )?.spec?.template?.spec?.taints;
  if (!Array.isArray(taints)) return [];
  return taints.filter(
    (t): t is PoolTaint =>
      typeof t === 'object' &&
      t !== null &&
      typeof t.key === 'string' &&
      typeof t.effect === 'string',
  );
}

interface PodToleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

/** Kubernetes' toleration matching (`ToleratesTaint`). */
function tolerates(t: PodToleration, taint: PoolTaint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (!t.key) return t.operator === 'Exists';
  if (t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

/**
 * A reused pool keeps its own taints, which may differ from the taint the
 * plan derived (e.g. a hand-written pool). The workload must tolerate what
 * the pool really has, or its pods stay Pending: add the missing tolerations.
 */
function tolerateReusedPool(
  objects: KubernetesObject[],
  taints: PoolTaint[],
): KubernetesObject[] {
  const blocking = taints.filter(t => t.effect !== 'PreferNoSchedule');
  if (blocking.length === 0) return objects;
  return objects.map(obj => {
    if (!WORKLOAD_KINDS.has(obj.kind)) return obj;
    const copy = JSON.parse(JSON.stringify(obj)) as KubernetesObject;
    const podSpec = (copy.spec as any)?.template?.spec;
    if (!podSpec) return obj;
    const tolerations: PodToleration[] = Array.isArray(podSpec.tolerations)
      ? podSpec.tolerations
      : [];
    const missing = blocking.filter(
      taint => !tolerations.some(t => tolerates(t, taint)),
    );
    if (missing.length === 0) return obj;
    podSpec.tolerations = [
      ...tolerations,
      ...missing.map(taint => ({
        key: taint.key,
        operator: 'Equal',
        value: taint.value ?? '',
        effect: taint.effect,
      })),
    ];
    return copy;
  });
}

/** One file per named entry: create it, accept identical content, refuse different content. */
async function applyNamedFile(
  staged: StagedTree,
  path: string,
  value: unknown,
  what: string,
): Promise<void> {
  const text = await staged.read(path);
  if (text === undefined || text.trim() === '') {
    await staged.write(path, toYaml(value));
    return;
  }
  const values = YamlFile.parse(path, text)
    .values()
    .filter(v => v !== null);
  if (values.length === 1 && deepEqual(values[0], value)) return;
  throw conflictError(
    path,
    `${what} already exists at ${path} with different content; a config in use is never changed in place (nodes would not reload it) — choose a new name`,
  );
}

/** Adds one entry to the mig-parted config, keeping `mig-configs` sorted by name. */
async function applyMigConfig(
  staged: StagedTree,
  path: string,
  name: string,
  entries: unknown[],
): Promise<void> {
  const file = YamlFile.parse(path, await staged.read(path));
  if (!file.docs.some(d => isMap(d.contents))) {
    // A fresh config also carries `all-disabled`, the GPU Operator's default label value.
    const doc = file.firstMap();
    doc.set('version', 'v1');
    const configs: Record<string, unknown> = {
      'all-disabled': [{ devices: 'all', 'mig-enabled': false }],
      [name]: entries,
    };
    doc.set('mig-configs', doc.createNode(sortKeysDeepTop(configs)));
    await writeIfModified(staged, file);
    return;
  }
  const doc = file.firstMap();
  if (!doc.has('version')) {
    (doc.contents as YAMLMap).items.unshift(doc.createPair('version', 'v1'));
    file.modified = true;
  }
  let configs = doc.get('mig-configs', true);
  if (!isMap(configs)) {
    doc.set('mig-configs', doc.createNode({}));
    configs = doc.get('mig-configs', true);
    file.modified = true;
  }
  const map = configs as YAMLMap;
  if (map.has(name)) {
    const current = (map.get(name, true) as { toJSON(): unknown }).toJSON();
    if (!deepEqual(current, entries)) {
      throw conflictError(
        `${path}#mig-configs.${name}`,
        `mig-parted config "${name}" already exists in ${path} with different content`,
      );
    }
  } else {
    map.set(doc.createNode(name), doc.createNode(entries));
    file.modified = true;
  }
  const before = map.items.map(i =>
    String((i.key as { value?: unknown })?.value ?? i.key),
  );
  sortMap(map);
  const after = map.items.map(i =>
    String((i.key as { value?: unknown })?.value ?? i.key),
  );
  if (before.join('\n') !== after.join('\n')) file.modified = true;
  await writeIfModified(staged, file);
}

/** Orders map keys, for the new mig-configs map only (entries keep their own key order). */
function sortKeysDeepTop(
  value: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map(k => [k, value[k]]),
  );
}

function fileNameFor(kind: string): string {
  return `${kind.toLowerCase()}.yaml`;
}

/**
 * Writes the workload folder: the new Deployment (+ ResourceClaimTemplate) or
 * the patch for an existing workload, and the folder's kustomization.
 * Returns the kustomization path when it was created.
 */
async function applyWorkload(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  { plan, manifests }: ApplyPlanInput,
  poolTaints: PoolTaint[],
): Promise<string | undefined> {
  const { namespace, component, mode } = manifests.workload;
  const objects = tolerateReusedPool(manifests.workload.objects, poolTaints);
  const dir = workloadDirPath(layout, namespace, component);
  const files = new Map<string, KubernetesObject[]>();
  const patches = new Set<string>();
  for (const obj of objects) {
    // In patch mode only the workload itself is a patch; a ResourceClaimTemplate is a new resource.
    const isPatch = mode === 'patch' && WORKLOAD_KINDS.has(obj.kind);
    const file = isPatch ? WORKLOAD_PATCH_FILE : fileNameFor(obj.kind);
    if (isPatch) patches.add(file);
    files.set(file, [...(files.get(file) ?? []), obj]);
  }
  for (const [file, objs] of [...files.entries()].sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    await applyWorkloadFile(staged, posix.join(dir, file), objs, plan);
  }

  const kustomizationPath = posix.join(dir, 'kustomization.yaml');
  const kustomization = openKustomization(
    kustomizationPath,
    await staged.read(kustomizationPath),
  );
  for (const file of [...files.keys()].sort()) {
    if (patches.has(file)) addPatch(kustomization, file);
    else addResource(kustomization, file);
  }
  await writeIfModified(staged, kustomization);
  return kustomization.exists ? undefined : kustomizationPath;
}

/**
 * A workload file that exists is only replaced when it holds this request's
 * own workload (same kinds and names, and the same kubernetes-id when set);
 * the update changes only differing values so hand-added comments survive.
 */
async function applyWorkloadFile(
  staged: StagedTree,
  path: string,
  objects: KubernetesObject[],
  plan: Plan,
): Promise<void> {
  const text = await staged.read(path);
  if (text === undefined || text.trim() === '') {
    await staged.write(path, objectsToYaml(objects));
    return;
  }
  const file = YamlFile.parse(path, text);
  const existing = file.values().filter(v => v !== null) as KubernetesObject[];
  if (
    existing.length === objects.length &&
    existing.every((o, i) => deepEqual(o, objects[i]))
  ) {
    return;
  }
  const ownId = plan.request.metadata.name;
  const own =
    existing.length > 0 &&
    existing.every(o => {
      const match = objects.find(
        n => n.kind === o?.kind && n.metadata.name === o?.metadata?.name,
      );
      const id = (o?.metadata?.labels as Record<string, string> | undefined)?.[
        KUBERNETES_ID_LABEL
      ];
      return match !== undefined && (id === undefined || id === ownId);
    });
  if (!own) {
    throw conflictError(
      path,
      `${path} already exists and holds a different workload; it is not overwritten`,
    );
  }
  for (const obj of objects) {
    const doc = file.findObject(obj.kind, obj.metadata.name);
    if (doc) {
      if (syncNode(doc, [], JSON.parse(JSON.stringify(obj))))
        file.modified = true;
    } else {
      file.append(obj);
    }
  }
  await writeIfModified(staged, file);
}

/** The request itself, canonical (sorted keys below the top level), for audit and re-rendering. */
export function canonicalRequestYaml(plan: Plan): string {
  const { apiVersion, kind, metadata, spec } = plan.request;
  return toYaml({
    apiVersion,
    kind,
    metadata: sortKeysDeep(metadata),
    spec: sortKeysDeep(spec),
  });
}

async function applyRequest(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  plan: Plan,
): Promise<void> {
  const { namespace, name } = plan.request.metadata;
  const path = requestPath(layout, namespace, name);
  const content = canonicalRequestYaml(plan);
  const text = await staged.read(path);
  if (text === undefined || text.trim() === '') {
    await staged.write(path, content);
    return;
  }
  const file = YamlFile.parse(path, text);
  const doc = file.firstMap();
  const value = JSON.parse(JSON.stringify(plan.request));
  if (syncNode(doc, [], value)) file.modified = true;
  await writeIfModified(staged, file);
}

/**
 * Lists a file in the nearest kustomization between its folder and the
 * cluster kustomization (a `nodepools/kustomization.yaml` may own the pool
 * files), unless a listed folder already covers it.
 */
async function listResource(
  staged: StagedTree,
  clusterKustomization: YamlFile,
  filePath: string,
): Promise<void> {
  const rootDir = posix.dirname(clusterKustomization.path);
  let dir = posix.dirname(filePath);
  while (dir !== rootDir && dir.startsWith(`${rootDir}/`)) {
    const candidate = posix.join(dir, 'kustomization.yaml');
    const text = await staged.read(candidate);
    if (text !== undefined) {
      const nested = openKustomization(candidate, text);
      addResource(nested, relativeTo(candidate, filePath));
      await writeIfModified(staged, nested);
      return;
    }
    dir = posix.dirname(dir);
  }
  const entry = relativeTo(clusterKustomization.path, filePath);
  const resources =
    (clusterKustomization.firstMap().toJS()?.resources as unknown[]) ?? [];
  const covered = resources.some(
    r => typeof r === 'string' && entry.startsWith(`${r.replace(/\/$/, '')}/`),
  );
  if (!covered) addResource(clusterKustomization, entry);
}

/** Lists a newly created kustomization's folder in its parent's kustomization, when the parent has one. */
async function listInParent(
  staged: StagedTree,
  kustomizationPath: string,
): Promise<void> {
  const dir = posix.dirname(kustomizationPath);
  const parentDir = posix.dirname(dir);
  if (parentDir === '.' || parentDir === dir) return;
  const parentPath = posix.join(parentDir, 'kustomization.yaml');
  const text = await staged.read(parentPath);
  if (text === undefined) return;
  const parent = openKustomization(parentPath, text);
  addResource(parent, posix.basename(dir));
  await writeIfModified(staged, parent);
}
