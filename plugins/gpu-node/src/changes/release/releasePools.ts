/**
 * The pool part of a release: pools the request held shrink (their ledger
 * and limits, as when a request moves away), and a managed pool nobody
 * holds any more goes: its NodePool, the NodeOverlays the product wrote for
 * it and a node class only it used; or its MachineDeployment and the machine
 * templates the product wrote for it. An adopted MachineDeployment nobody
 * holds goes back to its team (`unadoptMachineDeployments.ts`). Hand-written objects in the same file
 * stay, and so does the file then.
 */
import type { Document } from 'yaml';
import type {
  ClusterProfile,
  ReleasedPool,
} from '@gpu-gitops/plugin-gpu-common';
import {
  CLUSTER_API_TEMPLATE_KINDS,
  NODE_CLASS_KINDS,
} from '@gpu-gitops/plugin-gpu-common';
import {
  clusterKustomizationPath,
  type ResolvedRepoLayout,
} from '../../layout/layout';
import { getIn } from '../../repo/yamlObjects';
import { isOverlayOf } from '../addedOverlays';
import { applyLeftPools } from '../applyPool';
import { unlistResource } from '../listing';
import { isManagedObject } from '../ownership';
import { findPoolDocument } from '../poolDocumentLocator';
import type { StagedTree } from '../stagedTree';
import { YamlFile } from '../yamlFile';
import { clusterNodePools } from './clusterNodePools';
import { unadoptMachineDeployments } from './unadoptMachineDeployments';

/** The node class a NodePool document launches with. */
function nodeClassOf(nodePool: unknown): string | undefined {
  const name = getIn(
    nodePool,
    'spec',
    'template',
    'spec',
    'nodeClassRef',
    'name',
  );
  return typeof name === 'string' ? name : undefined;
}

/** Node class names the cluster's NodePools use, except those of `leaving`. */
async function nodeClassesInUse(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  leaving: Set<string>,
): Promise<Set<string>> {
  const used = new Set<string>();
  for (const nodePool of await clusterNodePools(staged, layout, cluster)) {
    if (leaving.has(String(getIn(nodePool, 'metadata', 'name')))) continue;
    const nodeClass = nodeClassOf(nodePool);
    if (nodeClass) used.add(nodeClass);
  }
  return used;
}

/**
 * A Cluster API machine template the product wrote for pool `name`: the one
 * its MachineDeployment references and those it superseded (kept while old
 * Machines might use them) all carry the pool label.
 */
function isTemplateOf(
  value: unknown,
  name: string,
  labelDomain: string,
): boolean {
  return (
    CLUSTER_API_TEMPLATE_KINDS.includes(String(getIn(value, 'kind'))) &&
    isManagedObject(value) &&
    getIn(value, 'metadata', 'labels', `${labelDomain}/pool`) === name
  );
}

async function removePool(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: ClusterProfile,
  pool: ReleasedPool,
  classesInUse: Set<string>,
): Promise<void> {
  const file = YamlFile.parse(pool.path, await staged.read(pool.path));
  const nodePool = findPoolDocument(file, pool.name);
  if (!nodePool) return; // moved or deleted meanwhile: nothing to remove
  const nodeClass = nodeClassOf(nodePool.toJS());
  const going: Document[] = file.docs.filter(doc => {
    const value = doc.toJS();
    if (doc === nodePool) return true;
    if (isTemplateOf(value, pool.name, cluster.labelDomain)) return true;
    if (isOverlayOf(value, pool.name, cluster.labelDomain)) return true;
    return (
      NODE_CLASS_KINDS.includes(String(getIn(value, 'kind'))) &&
      isManagedObject(value) &&
      nodeClass !== undefined &&
      getIn(value, 'metadata', 'name') === nodeClass &&
      !classesInUse.has(nodeClass)
    );
  });
  for (const doc of going) file.remove(doc);
  if (file.isEmpty) {
    await staged.remove(pool.path);
    await unlistResource(
      staged,
      clusterKustomizationPath(layout, cluster.name),
      pool.path,
    );
    return;
  }
  const content = file.newContent();
  if (content !== undefined) await staged.write(pool.path, content);
}

/** Shrinks the pools the request held, and removes those the plan removes. */
export async function releasePools(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: ClusterProfile,
  pools: readonly ReleasedPool[],
): Promise<void> {
  await applyLeftPools(
    staged,
    pools.filter(p => !p.removed),
    cluster,
  );
  await unadoptMachineDeployments(staged, cluster, pools);
  const removed = pools.filter(p => p.removed);
  if (removed.length === 0) return;
  const classesInUse = await nodeClassesInUse(
    staged,
    layout,
    cluster.name,
    new Set(removed.map(p => p.name)),
  );
  for (const pool of removed) {
    await removePool(staged, layout, cluster, pool, classesInUse);
  }
}
