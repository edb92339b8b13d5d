import {
  WELL_KNOWN_KEYS,
  type GpuCatalog,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize';
import {
  layoutPrefix,
  matchLayoutPath,
  migConfigPath,
  pathReachesCluster,
  ResolvedRepoLayout,
} from '../layout/layout';
import { readRepoState } from '../repo/readRepoState';
import { asKubernetesObject, getIn, isPlainObject } from '../repo/yamlObjects';
import { configRuleFindings } from './configRules';
import { overlayReach } from './foreignNodeOverlayRules';
import { Finding, objectName, prefixPath } from './findings';
import { configMapGenerators } from '../kustomize/configMapGenerators';
import type { SourceTree } from './sourceTree';

/**
 * Checks of one cluster's GPU folder as its files lay it out (the layout
 * says where the pools and configs live): every device-plugin and
 * mig-parted config valid and listed in the folder's configMapGenerator,
 * a NodeOverlay for every shared pool, no object defined twice.
 */
const SHARED_MODES = new Set(['time-slicing', 'mps', 'mig']);

/** Names of the clusters whose GPU kustomization the tree holds. */
export function clusterNames(
  layout: ResolvedRepoLayout,
  files: string[],
): string[] {
  const names = new Set<string>();
  for (const file of files) {
    const name = matchLayoutPath(
      layout,
      'clusterKustomization',
      {},
      'cluster',
      file,
    );
    if (name) names.add(name);
  }
  return [...names].sort();
}

/** The files a cluster's GPU kustomization lists in its configMapGenerator → key. */
export function listedConfigFiles(
  source: SourceTree,
  layout: ResolvedRepoLayout,
  cluster: string,
): Map<string, string> {
  const kustomizationPath = layout.render('clusterKustomization', { cluster });
  const kustomization = source.docs.find(
    d => d.path === kustomizationPath,
  )?.value;
  const listed = new Map<string, string>();
  for (const generator of configMapGenerators(
    kustomizationPath,
    kustomization,
  )) {
    generator.files.forEach((key, path) => listed.set(path, key));
  }
  return listed;
}

export async function checkClusterFolder(
  source: SourceTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  findings: Finding[],
  checks: { nodeOverlay: boolean; catalog: GpuCatalog },
): Promise<void> {
  const known = { cluster };
  const kustomizationPath = layout.render('clusterKustomization', known);
  const listed = listedConfigFiles(source, layout, cluster);

  // Device-plugin configs: each file valid and listed as a ConfigMap key.
  for (const doc of source.docs) {
    const name = matchLayoutPath(
      layout,
      'devicePluginConfig',
      known,
      'config',
      doc.path,
    );
    if (!name) continue;
    for (const f of configRuleFindings.devicePlugin(doc.value)) {
      findings.push({
        file: doc.path,
        object: name,
        rule: f.rule,
        message: prefixPath(f),
      });
    }
    if (!listed.has(doc.path)) {
      findings.push({
        file: doc.path,
        object: name,
        rule: 'config-not-listed',
        message: `device-plugin config "${name}" is not listed in the configMapGenerator of ${kustomizationPath}, so nodes cannot select it`,
      });
    }
  }

  // mig-parted config: valid and listed.
  const migPath = migConfigPath(layout, cluster);
  const migDoc = source.docs.find(d => d.path === migPath);
  if (migDoc) {
    for (const f of configRuleFindings.migParted(migDoc.value)) {
      findings.push({
        file: migPath,
        object: 'mig-configs',
        rule: f.rule,
        message: prefixPath(f),
      });
    }
    if (!listed.has(migPath)) {
      findings.push({
        file: migPath,
        object: '',
        rule: 'config-not-listed',
        message: `${migPath} is not listed in the configMapGenerator of ${kustomizationPath}, so the MIG manager never sees it`,
      });
    }
  }

  if (checks.nodeOverlay) {
    await checkOverlaysPresent(source, layout, cluster, findings, checks);
  }
  checkDuplicates(source, layout, cluster, findings);
}

/**
 * A hand-written NodeOverlay that reaches the cluster (its folder, or a
 * folder of no cluster: `pathReachesCluster`) and the pool
 * (no `karpenter.sh/nodepool` requirement keeping it out: the rule
 * `overlayReach`) and sets its resource gives it capacity as well: the
 * request then writes none of its own (`keepHandWrittenOverlays`). Whether
 * that capacity is right is `node-overlay-reaches-product-pool`'s to say.
 */
function teamOverlayGivesCapacity(
  source: SourceTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  pool: { path: string; name: string; resourceName: string },
  catalog: GpuCatalog,
): boolean {
  const poolObject = source.docs
    .filter(d => d.path === pool.path)
    .map(d => asKubernetesObject(d.value))
    .find(o => o?.kind === 'NodePool' && o.metadata.name === pool.name);
  if (!poolObject) return false;
  const reachesPool = overlayReach(poolObject as BuiltObject, catalog);
  return source.docs
    .filter(d => pathReachesCluster(layout, cluster, d.path))
    .map(d => asKubernetesObject(d.value))
    .some(
      o =>
        o?.kind === 'NodeOverlay' &&
        isPlainObject(getIn(o, 'spec', 'capacity')) &&
        (getIn(o, 'spec', 'capacity') as Record<string, unknown>)[
          pool.resourceName
        ] !== undefined &&
        reachesPool(o),
    );
}

/** A shared pool needs a NodeOverlay, or Karpenter never provisions for its pods. */
async function checkOverlaysPresent(
  source: SourceTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  findings: Finding[],
  { catalog }: { catalog: GpuCatalog },
) {
  const state = await readRepoState(source.tree, layout, cluster);
  const poolPrefix = layoutPrefix(layout, 'nodePool', { cluster }, 'pool');
  const overlays = source.docs
    .filter(d => d.path.startsWith(poolPrefix))
    .map(d => asKubernetesObject(d.value))
    .filter(o => o?.kind === 'NodeOverlay');
  // The pools of the pool folder, as this check has always read them. A
  // pool the import adopted where it lives gets its NodeOverlays from the
  // first request that lands on it (applyPool appends missing companions);
  // until then Karpenter treats it as before the import, and the import's
  // pull request does not fail this check.
  for (const pool of state.pools.filter(p => p.path.startsWith(poolPrefix))) {
    if (!SHARED_MODES.has(pool.sharingMode)) continue;
    const hasOverlay = overlays.some(
      o =>
        (getIn(o, 'spec', 'requirements') as unknown[] | undefined)?.some(
          r =>
            getIn(r, 'key') === WELL_KNOWN_KEYS.karpenterNodePool &&
            (getIn(r, 'values') as unknown[] | undefined)?.includes(pool.name),
        ) &&
        isPlainObject(getIn(o, 'spec', 'capacity')) &&
        (getIn(o, 'spec', 'capacity') as Record<string, unknown>)[
          pool.resourceName
        ] !== undefined,
    );
    if (
      !hasOverlay &&
      !teamOverlayGivesCapacity(source, layout, cluster, pool, catalog)
    ) {
      findings.push({
        file: pool.path,
        object: `NodePool/${pool.name}`,
        rule: 'missing-node-overlay',
        message: `shared pool (${pool.sharingMode}) has no NodeOverlay giving ${pool.resourceName} capacity; Karpenter only knows physical GPUs and would not provision for these pods`,
      });
    }
  }
}

/** One object id twice under a cluster's GPU folder breaks `kustomize build`. */
function checkDuplicates(
  source: SourceTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  findings: Finding[],
) {
  const kustomizationPath = layout.render('clusterKustomization', { cluster });
  const slash = kustomizationPath.lastIndexOf('/');
  const folder = slash < 0 ? '' : kustomizationPath.slice(0, slash + 1);
  const seen = new Map<string, string>();
  for (const doc of source.docs) {
    if (!doc.path.startsWith(folder)) continue;
    const obj = asKubernetesObject(doc.value);
    if (!obj || typeof obj.apiVersion !== 'string') continue;
    const group = obj.apiVersion.includes('/')
      ? obj.apiVersion.split('/')[0]
      : '';
    const namespace =
      typeof obj.metadata.namespace === 'string' ? obj.metadata.namespace : '';
    const id = `${group}/${obj.kind}/${namespace}/${obj.metadata.name}`;
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, doc.path);
      continue;
    }
    findings.push({
      file: doc.path,
      object: objectName(obj),
      rule: 'duplicate-object',
      message: `${objectName(obj)} is also defined in ${first}; kustomize refuses the same object twice`,
    });
  }
}
