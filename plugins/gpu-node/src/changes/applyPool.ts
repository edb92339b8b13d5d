/**
 * The pool part of a change: the NodePool file (with its NodeOverlays and
 * node class), and the ledgers and limits of pools the request leaves.
 */
import type { Document } from 'yaml';
import {
  computeClassNodes,
  formatLedger,
  gpuAnnotationKeys,
  keptStaticNodes,
  GpuInputError,
  NODE_CLASS_KINDS,
  poolProviderOf,
  type ClusterProfile,
  type KubernetesObject,
  type LedgerEntry,
  type LeftPool,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import {
  layoutPrefix,
  nodePoolPath,
  type ResolvedRepoLayout,
} from '../layout/layout';
import {
  MACHINE_DEPLOYMENT,
  nodeRegistrationTaints,
  templatesOf,
} from '../repo/machineDeploymentPools';
import {
  NODE_FEATURE_RULE,
  ruleNodeNames,
  ruleTaints,
} from '../repo/nodeFeatureRulePools';
import { COMPUTE_CLASS_KIND } from '../repo/computeClassPools';
import { getIn } from '../repo/yamlObjects';
import { asAddedObject, removeAddedOverlays } from './addedOverlays';
import { deepEqual, toYaml } from './canonical';
import { conflictError } from './conflict';
import { nodeClassesElsewhere } from './nodeClasses';
import {
  recordAddedAnnotations,
  removeAddedAnnotations,
  unclaimedAnnotations,
} from './poolAddedAnnotations';
import { describeObject, isManagedObject } from './ownership';
import { findPoolDocument } from './poolDocumentLocator';
import type { StagedTree } from './stagedTree';
import { YamlFile } from './yamlFile';

export interface PoolTaint {
  key: string;
  value?: string;
  effect: string;
}

function objectsToYaml(objects: unknown[]): string {
  return objects
    .map((o, i) => (i > 0 ? `---\n${toYaml(o)}` : toYaml(o)))
    .join('');
}

const isYaml = (path: string) => /\.ya?ml$/.test(path);

/**
 * Finds the file holding NodePool `name`: a reused pool's own file (where
 * the reader found it: anywhere in the cluster's folder, e.g. a pool the
 * import adopted in `karpenter/`), else the layout path, else any file in
 * the pool folder.
 */
async function findPoolFile(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  name: string,
  poolKind: string,
  reusedPath: string | undefined,
): Promise<YamlFile | undefined> {
  if (reusedPath !== undefined) {
    const text = await staged.read(reusedPath);
    const file =
      text === undefined ? undefined : YamlFile.parse(reusedPath, text);
    if (file && findPoolDocument(file, name, [poolKind])) return file;
  }
  const preferred = nodePoolPath(layout, cluster, name);
  const candidates = [
    preferred,
    ...(
      await staged.list(layoutPrefix(layout, 'nodePool', { cluster }, 'pool'))
    ).filter(p => p !== preferred && isYaml(p)),
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
    if (findPoolDocument(file, name, [poolKind])) return file;
    if (path === preferred && text.trim() !== '') {
      const held = file
        .values()
        .filter(v => v !== null)
        .map(describeObject);
      throw conflictError(
        path,
        `${path} already exists and holds ${held.join(', ') || 'other content'}, not ${poolKind} "${name}"; the product never overwrites a file it did not write`,
      );
    }
  }
  return undefined;
}

const objectKey = (o: KubernetesObject) => `${o.kind}/${o.metadata.name}`;

function withoutDerived(o: unknown, ledgerKeys: string[]): unknown {
  const copy = JSON.parse(JSON.stringify(o ?? null));
  if (copy?.spec) {
    delete copy.spec.limits;
    delete copy.spec.replicas;
  }
  for (const key of ledgerKeys) delete copy?.metadata?.annotations?.[key];
  if (
    copy?.metadata?.annotations &&
    !Object.keys(copy.metadata.annotations).length
  ) {
    delete copy.metadata.annotations;
  }
  return copy;
}

/** Sets a value on a document, marking the file modified only when it changes. */
function setIfChanged(
  file: YamlFile,
  doc: Document,
  path: string[],
  value: unknown,
): void {
  const current = doc.getIn(path);
  if (current !== undefined && deepEqual(current, value)) return;
  doc.setIn(path, value);
  file.modified = true;
}

/** Writes a pool's ledger, floor and limits onto its NodePool document. */
function writeCapacity(
  file: YamlFile,
  doc: Document,
  cluster: ClusterProfile,
  capacity: {
    ledger: LedgerEntry[];
    limitFloor?: number;
    limits: Record<string, number>;
  },
  machineNodes?: number,
  nodeNames?: string[],
): void {
  const keys = gpuAnnotationKeys(cluster.labelDomain);
  setIfChanged(
    file,
    doc,
    ['metadata', 'annotations', keys.requests],
    formatLedger(capacity.ledger),
  );
  if (capacity.limitFloor !== undefined) {
    setIfChanged(
      file,
      doc,
      ['metadata', 'annotations', keys.limitFloor],
      String(capacity.limitFloor),
    );
  }
  if (doc.get('kind') === MACHINE_DEPLOYMENT) {
    writeMachineDeploymentSize(file, doc, machineNodes);
    return;
  }
  if (doc.get('kind') === NODE_FEATURE_RULE) {
    writeRuleNodes(file, doc, nodeNames, machineNodes);
    return;
  }
  // GKE's autoscaler sizes a ComputeClass's node pools: it has no size.
  if (doc.get('kind') === COMPUTE_CLASS_KIND) return;
  for (const [resource, value] of Object.entries(capacity.limits).sort(
    ([a], [b]) => (a < b ? -1 : 1),
  )) {
    const raw = doc.getIn(['spec', 'limits', resource]);
    // A quantity we cannot compare (e.g. `2k`, `1000Gi`) was set by hand: leave it.
    if (raw !== undefined && !/^\d+$/.test(String(raw))) continue;
    if (raw !== undefined && Number(raw) === value) continue;
    // An integer the team wrote stays an integer (Karpenter's schema is
    // int-or-string), so a release that lowers it back gives their bytes.
    doc.setIn(
      ['spec', 'limits', resource],
      typeof raw === 'number' ? value : String(value),
    );
    file.modified = true;
  }
  // A static pool (DRA) runs exactly its limit of nodes.
  const nodes = capacity.limits.nodes;
  if (nodes !== undefined && doc.getIn(['spec', 'replicas']) !== undefined) {
    setIfChanged(file, doc, ['spec', 'replicas'], nodes);
  }
}

/**
 * A static pool chosen by node name: its rule's `nodename` list is the nodes
 * the plan gives it, or (a pool left or released) the first of its nodes its
 * remaining requests need; a pool chosen by GPU has no list and keeps its rule.
 */
function writeRuleNodes(
  file: YamlFile,
  doc: Document,
  nodeNames: string[] | undefined,
  nodes: number | undefined,
): void {
  const current = ruleNodeNames(doc.toJS());
  if (!current) return;
  const wanted =
    nodeNames ??
    (nodes !== undefined ? keptStaticNodes(current, nodes) : undefined);
  if (!wanted || deepEqual(current, wanted)) return;
  doc.setIn(
    ['spec', 'rules', 0, 'matchFeatures', ...nameMatchPath(doc), 'value'],
    doc.createNode(wanted),
  );
  file.modified = true;
}

/** Where in the first rule's matchFeatures the `system.name` `nodename` match is. */
function nameMatchPath(doc: Document): (string | number)[] {
  const list = getIn(doc.toJS(), 'spec', 'rules', 0, 'matchFeatures');
  const index = Array.isArray(list)
    ? list.findIndex(f => getIn(f, 'feature') === 'system.name')
    : -1;
  return [index, 'matchExpressions', 'nodename'];
}

/**
 * A Cluster API pool's size: `spec.replicas` where it has them, else (under
 * the autoscaler) its max-size bound; unchanged when the nodes are not known.
 */
function writeMachineDeploymentSize(
  file: YamlFile,
  doc: Document,
  nodes: number | undefined,
): void {
  if (nodes === undefined) return;
  if (doc.getIn(['spec', 'replicas']) !== undefined) {
    setIfChanged(file, doc, ['spec', 'replicas'], nodes);
  }
  const maxSize = [
    'metadata',
    'annotations',
    'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size',
  ];
  if (doc.getIn(maxSize) !== undefined) {
    setIfChanged(file, doc, maxSize, String(nodes));
  }
}

/** The taints of pool `name`'s nodes as `file` defines them (none when the file does not hold it). */
export function poolTaintsIn(file: YamlFile, name: string): PoolTaint[] {
  const doc = findPoolDocument(file, name);
  if (!doc) return [];
  const value = doc.toJS();
  if (getIn(value, 'kind') === COMPUTE_CLASS_KIND) {
    return asPoolTaints(computeClassNodes(value).taints);
  }
  return getIn(value, 'kind') === NODE_FEATURE_RULE
    ? asPoolTaints(ruleTaints(value))
    : taintsOf(value, file.values());
}

/** The taints a pool's nodes get: a NodePool's, or a MachineDeployment's kubelet registration. */
function taintsOf(pool: unknown, values: unknown[]): PoolTaint[] {
  return asPoolTaints(
    (pool as { kind?: unknown }).kind === MACHINE_DEPLOYMENT
      ? nodeRegistrationTaints(templatesOf(pool, values).bootstrap)
      : (pool as { spec?: { template?: { spec?: { taints?: unknown } } } })
          ?.spec?.template?.spec?.taints,
  );
}

function asPoolTaints(taints: unknown): PoolTaint[] {
  if (!Array.isArray(taints)) return [];
  return taints.filter(
    (t): t is PoolTaint =>
      typeof t === 'object' &&
      t !== null &&
      typeof t.key === 'string' &&
      typeof t.effect === 'string',
  );
}

/** What updating a reused pool in place needs to know. */
interface ReusedPool {
  poolKind: string;
  nodePool: KubernetesObject;
  wanted: KubernetesObject[];
  managed: boolean;
  cluster: ClusterProfile;
  plan: Plan;
  /** The pool object as the file held it before this change. */
  current: unknown;
}

/**
 * A reused pool that is not a Karpenter NodePool, updated in place: its
 * ledger, and (ours only) what the plan wants of its object. A Cluster API
 * pool its size and templates; a static pool (NodeFeatureRule) its rule, so
 * its nodes follow the planned names, labels and taints; a GKE pool
 * (ComputeClass) its rules. One written by hand keeps its own. Returns its
 * nodes' taints, or undefined for a NodePool (`updateReusedNodePool`'s).
 */
function updateReusedPoolOfKind(
  existing: YamlFile,
  doc: Document,
  reused: ReusedPool,
): PoolTaint[] | undefined {
  const { poolKind, nodePool, managed, cluster, plan, current } = reused;
  if (poolKind === MACHINE_DEPLOYMENT) {
    return updateMachineDeploymentPool(
      existing,
      doc,
      nodePool,
      reused.wanted,
      managed,
    );
  }
  const spec = nodePool.spec as Record<string, unknown>;
  if (poolKind === NODE_FEATURE_RULE) {
    writeCapacity(
      existing,
      doc,
      cluster,
      plan.pool,
      undefined,
      plan.pool.nodeNames,
    );
    if (managed) setIfChanged(existing, doc, ['spec', 'rules'], spec.rules);
    return asPoolTaints(ruleTaints(current));
  }
  if (poolKind === COMPUTE_CLASS_KIND) {
    writeCapacity(existing, doc, cluster, plan.pool);
    if (managed) {
      setIfChanged(existing, doc, ['spec', 'priorities'], spec.priorities);
    }
    return asPoolTaints(computeClassNodes(current).taints);
  }
  return undefined;
}

/** The pool object of the manifest set (the provider's pool kind); refused when it has none. */
function plannedPoolObject(
  objects: KubernetesObject[],
  poolKind: string,
  name: string,
): KubernetesObject {
  const nodePool = objects.find(o => o.kind === poolKind);
  if (nodePool) return nodePool;
  throw new GpuInputError([
    {
      path: 'manifests.pool',
      rule: 'missing-nodepool',
      message: `the manifest set has no ${poolKind} for pool "${name}"`,
    },
  ]);
}

/** The objects to write for the pool at `path`: a node class another file of the cluster defines is not written twice. */
async function objectsToWrite(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  path: string,
  objects: KubernetesObject[],
): Promise<KubernetesObject[]> {
  const shared = await nodeClassesElsewhere(staged, layout, cluster, path);
  return objects.filter(
    o => !NODE_CLASS_KINDS.includes(o.kind) || !shared.has(objectKey(o)),
  );
}

/**
 * A pool of the plan's new name that exists already with other settings
 * (its ledger and the sizes derived from it aside) is refused: it was not
 * planned for reuse, so it is not changed.
 */
function refuseUnplannedReuse(
  path: string,
  poolKind: string,
  pool: { current: unknown; planned: KubernetesObject; managed: boolean },
  keys: ReturnType<typeof gpuAnnotationKeys>,
  name: string,
): void {
  const derived = [keys.requests, keys.limitFloor];
  if (
    deepEqual(
      withoutDerived(pool.current, derived),
      withoutDerived(pool.planned, derived),
    )
  ) {
    return;
  }
  throw conflictError(
    path,
    `${poolKind} "${name}" already exists in ${path} with other settings${pool.managed ? '' : ' and was written by hand'}; it was not planned for reuse, so it is not changed`,
  );
}

/**
 * A reused Karpenter NodePool: its ledger and limits, the companion objects
 * it lacks (a team's pool gets them as added objects, removed with its
 * last request), and the planned config labels. Returns its nodes' taints.
 */
function updateReusedNodePool(
  existing: YamlFile,
  doc: Document,
  reused: ReusedPool,
): PoolTaint[] {
  const { nodePool, wanted, managed, cluster, plan, current } = reused;
  writeCapacity(existing, doc, cluster, plan.pool);
  const ledgerBefore = String(
    getIn(
      current,
      'metadata',
      'annotations',
      gpuAnnotationKeys(cluster.labelDomain).requests,
    ) ?? '',
  );
  for (const obj of wanted) {
    if (
      obj.kind === 'NodePool' ||
      existing.findObject(obj.kind, obj.metadata.name)
    )
      continue;
    existing.append(
      managed ? obj : asAddedObject(obj, ledgerBefore, cluster.labelDomain),
    );
  }
  followPlannedLabels(existing, doc, nodePool, managed);
  return taintsOf(current, existing.values());
}

/**
 * A reused pool takes the planned config labels: a config whose content
 * changed got a new key, and only a label change makes the nodes reload it.
 * A pool written by hand takes the `nvidia.com/` ones only.
 */
function followPlannedLabels(
  existing: YamlFile,
  doc: Document,
  nodePool: KubernetesObject,
  managed: boolean,
): void {
  const plannedLabels = (
    nodePool.spec as
      | { template?: { metadata?: { labels?: Record<string, unknown> } } }
      | undefined
  )?.template?.metadata?.labels;
  for (const [key, value] of Object.entries(plannedLabels ?? {}).sort(
    ([a], [b]) => (a < b ? -1 : 1),
  )) {
    if (!managed && !key.startsWith('nvidia.com/')) continue;
    setIfChanged(
      existing,
      doc,
      ['spec', 'template', 'metadata', 'labels', key],
      value,
    );
  }
}

/**
 * Writes the pool's NodePool (+ NodeOverlays, + node class). A new pool
 * gets a file of its own (never one that exists). A reused pool keeps its
 * file, wherever it lives (never moved, renamed or copied into the pool
 * folder): its ledger and the limits derived from it change, missing
 * companion objects are appended, and its config labels follow the plan. A pool written
 * by hand keeps everything else, our descriptive labels included: a changed
 * template label would make Karpenter replace all its nodes.
 */
export async function applyPool(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  plan: Plan,
  objects: KubernetesObject[],
  cluster: ClusterProfile,
): Promise<{ path: string; taints: PoolTaint[] }> {
  const name = plan.pool.name;
  const poolKind = poolProviderOf(cluster).poolKind;
  const nodePool = plannedPoolObject(objects, poolKind, name);
  const existing = await findPoolFile(
    staged,
    layout,
    cluster.name,
    name,
    poolKind,
    plan.pool.reused ? plan.pool.path : undefined,
  );
  const path = existing?.path ?? nodePoolPath(layout, cluster.name, name);
  const wanted = await objectsToWrite(
    staged,
    layout,
    cluster.name,
    path,
    objects,
  );
  if (!existing) {
    await staged.write(path, objectsToYaml(wanted));
    return { path, taints: [] };
  }

  const doc = findPoolDocument(existing, name, [poolKind])!;
  const current = doc.toJS();
  const managed = isManagedObject(current);
  const keys = gpuAnnotationKeys(cluster.labelDomain);
  if (!plan.pool.reused) {
    refuseUnplannedReuse(
      path,
      poolKind,
      { current, planned: nodePool, managed },
      keys,
      name,
    );
  }
  const absent = managed ? [] : unclaimedAnnotations(doc, keys);
  const reused = {
    poolKind,
    nodePool,
    wanted,
    managed,
    cluster,
    plan,
    current,
  };
  const taints =
    updateReusedPoolOfKind(existing, doc, reused) ??
    updateReusedNodePool(existing, doc, reused);
  recordAddedAnnotations(existing, doc, absent, keys);
  const content = existing.newContent();
  if (content !== undefined) await staged.write(path, content);
  return { path, taints };
}

/**
 * A reused Cluster API pool (returns the taints its nodes had). Its machine templates are never edited (Cluster
 * API treats them as immutable): a template whose content changed has a new
 * name and is appended, and the MachineDeployment's reference follows it, so
 * Cluster API rolls the nodes over. The superseded template stays in the file
 * while old Machines may still use it; the pool's removal takes them all.
 * A MachineDeployment written by hand keeps its templates and settings: only
 * its ledger and size change.
 */
function updateMachineDeploymentPool(
  file: YamlFile,
  doc: Document,
  planned: KubernetesObject,
  wanted: KubernetesObject[],
  managed: boolean,
): PoolTaint[] {
  const current = doc.toJS();
  const taints = taintsOf(current, file.values());
  const annotations = (planned.metadata.annotations ?? {}) as Record<
    string,
    string
  >;
  for (const [key, value] of Object.entries(annotations).sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    if (!managed && !isCapacityAnnotation(key)) continue;
    setIfChanged(file, doc, ['metadata', 'annotations', key], value);
  }
  const spec = planned.spec as Record<string, unknown>;
  if (spec.replicas !== undefined) {
    setIfChanged(file, doc, ['spec', 'replicas'], spec.replicas);
  }
  if (managed) {
    for (const ref of [
      ['spec', 'template', 'spec', 'bootstrap', 'configRef'],
      ['spec', 'template', 'spec', 'infrastructureRef'],
    ]) {
      const value = ref.reduce<any>((o, k) => o?.[k], planned);
      setIfChanged(file, doc, [...ref, 'name'], value.name);
    }
    for (const obj of wanted) {
      if (obj === planned || file.findObject(obj.kind, obj.metadata.name)) {
        continue;
      }
      file.append(obj);
    }
  }
  return taints;
}

/** The ledger, the floor and the autoscaler's bounds: what a request changes on any pool it holds. */
function isCapacityAnnotation(key: string): boolean {
  return (
    /\/(requests|limit-floor)$/.test(key) ||
    key.startsWith('cluster.x-k8s.io/cluster-api-autoscaler-node-group-')
  );
}

/** Shrinks the ledgers and limits of the pools a request left (or released). */
export async function applyLeftPools(
  staged: StagedTree,
  pools: readonly LeftPool[],
  cluster: ClusterProfile,
): Promise<void> {
  for (const left of pools) {
    const file = YamlFile.parse(left.path, await staged.read(left.path));
    const doc = findPoolDocument(file, left.name);
    if (!doc) continue; // moved or deleted meanwhile: nothing to shrink
    // A pool sized by nodes (Cluster API, static nodes by name) shrinks to
    // what its remaining requests need, whether a release or a request
    // moving away left it.
    writeCapacity(
      file,
      doc,
      cluster,
      left,
      left.nodesAfter,
      'nodeNamesAfter' in left ? left.nodeNamesAfter : undefined,
    );
    if (left.ledger.length === 0) {
      removeAddedAnnotations(file, doc, gpuAnnotationKeys(cluster.labelDomain));
    }
    removeAddedOverlays(file, left.name, left.ledger, cluster.labelDomain);
    const content = file.newContent();
    if (content !== undefined) await staged.write(left.path, content);
  }
}
