import { promises as fs } from 'fs';
import {
  builtinCatalog,
  findModel,
  fitMig,
  GpuCatalog,
  GpuInputError,
} from '@gpu-gitops/plugin-gpu-common';
import {
  LayoutInput,
  layoutPrefix,
  matchLayoutPath,
  matchLayoutValues,
  migConfigPath,
  resolveLayout,
  ResolvedRepoLayout,
} from '../layout/layout';
import { readRepoState } from '../repo/readRepoState';
import { FsRepoTree } from '../repo/tree';
import {
  DEVICE_PLUGIN_CONFIG_LABEL,
  isGpuResourceName,
  MIG_CONFIG_LABEL,
  NODEPOOL_LABEL,
} from '../repo/poolLabels';
import {
  asKubernetesObject,
  getIn,
  isPlainObject,
  isYamlPath,
  ParsedDocument,
  parseYamlDocuments,
} from '../repo/yamlObjects';
import { compareStrings } from '../changes/canonical';
import { configRuleFindings } from './configRules';
import { schemaError } from './schemas';

/** One problem a reviewer should see on a GitOps pull request. */
export interface Finding {
  /** Repository-relative path of the file. */
  file: string;
  /** `Kind/name` of the object, a config key, or '' for the whole file. */
  object: string;
  rule: string;
  message: string;
}

export interface ValidateGitOpsTreeOptions {
  layout?: LayoutInput;
  /** Catalog for GPU models (MIG geometry); the built-in one by default. */
  catalog?: GpuCatalog;
  karpenterVersion?: string;
  /**
   * Whether the cluster uses Karpenter NodeOverlays (default true). Without
   * them a missing overlay is expected, not a finding.
   */
  nodeOverlay?: boolean;
}

const SHARED_MODES = new Set(['time-slicing', 'mps', 'mig']);
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet']);

interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}
interface Taint {
  key: string;
  value?: string;
  effect: string;
}

/** Kubernetes' toleration matching (`ToleratesTaint`). */
function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (!t.key) return t.operator === 'Exists';
  if (t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

function objectName(value: unknown): string {
  const obj = asKubernetesObject(value);
  return obj ? `${obj.kind}/${obj.metadata.name}` : '';
}

/**
 * Checks a checked-out GitOps tree the way a PR reviewer would: every object
 * valid against its real schema, device-plugin and mig-parted configs valid,
 * every config label naming an existing key, every MIG layout fitting its GPU,
 * every GPU workload served (resource + tolerations) by some pool, and
 * NodeOverlays present for shared pools. Throws a GpuInputError when `dir`
 * is missing or is not a GitOps tree.
 */
export async function validateGitOpsTree(
  dir: string,
  options: ValidateGitOpsTreeOptions = {},
): Promise<Finding[]> {
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) {
    throw new GpuInputError([
      { path: 'dir', rule: 'not-found', message: `${dir} is not a directory` },
    ]);
  }
  const layout = resolveLayout(options.layout);
  const catalog = options.catalog ?? builtinCatalog;
  const tree = new FsRepoTree(dir);
  const files = await tree.listFiles();
  if (
    !files.some(
      f => f === 'kustomization.yaml' || f.endsWith('/kustomization.yaml'),
    )
  ) {
    throw new GpuInputError([
      {
        path: 'dir',
        rule: 'not-gitops-tree',
        message: `${dir} holds no kustomization.yaml: not a GitOps tree`,
      },
    ]);
  }

  const findings: Finding[] = [];
  const docs: ParsedDocument[] = [];
  for (const file of files.filter(isYamlPath)) {
    const { documents, error } = parseYamlDocuments(
      file,
      (await tree.readFile(file)) ?? '',
    );
    if (error)
      findings.push({ file, object: '', rule: 'yaml-syntax', message: error });
    docs.push(...documents);
  }

  // 1. Every object against its schema and Karpenter's extra rules.
  // Kustomize patches are partial objects by design: no schema for them.
  const patchFiles = kustomizePatchFiles(docs);
  for (const doc of docs) {
    const obj = asKubernetesObject(doc.value);
    if (!obj || typeof obj.apiVersion !== 'string') continue;
    const error = patchFiles.has(doc.path) ? undefined : schemaError(obj);
    if (error)
      findings.push({
        file: doc.path,
        object: objectName(obj),
        rule: 'schema',
        message: error,
      });
    for (const f of configRuleFindings.object(obj, options.karpenterVersion)) {
      findings.push({
        file: doc.path,
        object: objectName(obj),
        ...f,
        message: prefixPath(f),
      });
    }
  }

  // 2. Per cluster: configs, labels, MIG fit, overlays.
  const pools: {
    name: string;
    file: string;
    resourceName: string;
    taints: Taint[];
  }[] = [];
  for (const cluster of clusterNames(layout, files)) {
    pools.push(
      ...(await checkCluster(tree, layout, cluster, docs, catalog, findings, {
        nodeOverlay: options.nodeOverlay ?? true,
      })),
    );
    checkDuplicates(layout, cluster, docs, findings);
  }

  // 3. Every GPU workload is served by some pool.
  checkWorkloads(layout, docs, pools, findings);

  return findings.sort(
    (a, b) =>
      compareStrings(a.file, b.file) || compareStrings(a.object, b.object),
  );
}

/** Files that some kustomization uses as a patch (`patches[].path`, `patchesStrategicMerge`). */
function kustomizePatchFiles(docs: ParsedDocument[]): Set<string> {
  const out = new Set<string>();
  for (const doc of docs) {
    if (
      doc.path !== 'kustomization.yaml' &&
      !doc.path.endsWith('/kustomization.yaml')
    )
      continue;
    const dir = doc.path.slice(
      0,
      doc.path.length - 'kustomization.yaml'.length,
    );
    const patches = getIn(doc.value, 'patches');
    for (const p of Array.isArray(patches) ? patches : []) {
      const rel = typeof p === 'string' ? p : getIn(p, 'path');
      if (typeof rel === 'string') out.add(normaliseJoin(dir, rel));
    }
    const legacy = getIn(doc.value, 'patchesStrategicMerge');
    for (const rel of Array.isArray(legacy) ? legacy : []) {
      if (typeof rel === 'string') out.add(normaliseJoin(dir, rel));
    }
  }
  return out;
}

function prefixPath(f: { path: string; message: string }): string {
  return f.path ? `${f.path}: ${f.message}` : f.message;
}

function clusterNames(layout: ResolvedRepoLayout, files: string[]): string[] {
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

/** `key=path` / `path` entries of configMapGenerator, resolved to repo paths. */
function generatorFiles(
  kustomizationPath: string,
  kustomization: unknown,
): Map<string, string> {
  const dir = kustomizationPath.includes('/')
    ? kustomizationPath.slice(0, kustomizationPath.lastIndexOf('/') + 1)
    : '';
  const out = new Map<string, string>();
  const generators = getIn(kustomization, 'configMapGenerator');
  if (!Array.isArray(generators)) return out;
  for (const generator of generators) {
    const list = getIn(generator, 'files');
    if (!Array.isArray(list)) continue;
    for (const entry of list.map(String)) {
      const eq = entry.indexOf('=');
      const rel = eq < 0 ? entry : entry.slice(eq + 1);
      const key =
        eq < 0 ? rel.slice(rel.lastIndexOf('/') + 1) : entry.slice(0, eq);
      out.set(normaliseJoin(dir, rel), key);
    }
  }
  return out;
}

function normaliseJoin(dir: string, rel: string): string {
  const parts: string[] = [];
  for (const part of `${dir}${rel}`.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

async function checkCluster(
  tree: FsRepoTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  docs: ParsedDocument[],
  catalog: GpuCatalog,
  findings: Finding[],
  checks: { nodeOverlay: boolean },
) {
  const known = { cluster };
  const kustomizationPath = layout.render('clusterKustomization', known);
  const kustomization = docs.find(d => d.path === kustomizationPath)?.value;
  const listed = generatorFiles(kustomizationPath, kustomization);
  const state = await readRepoState(tree, layout, cluster);

  // Device-plugin configs: each file valid and listed as a ConfigMap key.
  const deviceKeys = new Set<string>();
  const dpPrefix = layoutPrefix(layout, 'devicePluginConfig', known, 'config');
  for (const doc of docs) {
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
  for (const [path, key] of listed)
    if (path.startsWith(dpPrefix)) deviceKeys.add(key);

  // mig-parted config: valid and listed.
  const migPath = migConfigPath(layout, cluster);
  const migDoc = docs.find(d => d.path === migPath);
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
  const migKeys = new Set(
    listed.has(migPath) ? Object.keys(state.migConfigs) : [],
  );

  const poolPrefix = layoutPrefix(layout, 'nodePool', known, 'pool');
  const poolDocs = docs.filter(d => d.path.startsWith(poolPrefix));
  const overlays = poolDocs
    .map(d => asKubernetesObject(d.value))
    .filter(o => o?.kind === 'NodeOverlay');
  const served: {
    name: string;
    file: string;
    resourceName: string;
    taints: Taint[];
  }[] = [];

  for (const pool of state.pools) {
    const doc = poolDocs.find(d => {
      const o = asKubernetesObject(d.value);
      return o?.kind === 'NodePool' && o.metadata.name === pool.name;
    });
    const labels = getIn(doc?.value, 'spec', 'template', 'metadata', 'labels');
    const object = `NodePool/${pool.name}`;
    const taintList = getIn(doc?.value, 'spec', 'template', 'spec', 'taints');
    served.push({
      name: pool.name,
      file: pool.path,
      resourceName: pool.resourceName,
      taints: (Array.isArray(taintList) ? taintList : []).filter(
        isPlainObject,
      ) as unknown as Taint[],
    });

    const deviceLabel = isPlainObject(labels)
      ? labels[DEVICE_PLUGIN_CONFIG_LABEL]
      : undefined;
    if (deviceLabel !== undefined && !deviceKeys.has(String(deviceLabel))) {
      findings.push({
        file: pool.path,
        object,
        rule: 'unknown-device-plugin-config',
        message: `label ${DEVICE_PLUGIN_CONFIG_LABEL}=${deviceLabel} names no key of the device-plugin ConfigMap (known: ${[...deviceKeys].sort().join(', ') || 'none'}); the device plugin would crash-loop on these nodes`,
      });
    }
    const migLabel = isPlainObject(labels)
      ? labels[MIG_CONFIG_LABEL]
      : undefined;
    if (migLabel !== undefined && !migKeys.has(String(migLabel))) {
      findings.push({
        file: pool.path,
        object,
        rule: 'unknown-mig-config',
        message: `label ${MIG_CONFIG_LABEL}=${migLabel} names no entry of the mig-parted config (known: ${[...migKeys].sort().join(', ') || 'none'})`,
      });
    }
    if (migLabel !== undefined && migKeys.has(String(migLabel))) {
      checkMigFit(
        pool.gpuModel,
        String(migLabel),
        state.migConfigs[String(migLabel)],
        catalog,
        pool.path,
        object,
        findings,
      );
    }

    if (checks.nodeOverlay && SHARED_MODES.has(pool.sharingMode)) {
      const hasOverlay = overlays.some(
        o =>
          (getIn(o, 'spec', 'requirements') as unknown[] | undefined)?.some(
            r =>
              getIn(r, 'key') === NODEPOOL_LABEL &&
              (getIn(r, 'values') as unknown[] | undefined)?.includes(
                pool.name,
              ),
          ) &&
          isPlainObject(getIn(o, 'spec', 'capacity')) &&
          (getIn(o, 'spec', 'capacity') as Record<string, unknown>)[
            pool.resourceName
          ] !== undefined,
      );
      if (!hasOverlay) {
        findings.push({
          file: pool.path,
          object,
          rule: 'missing-node-overlay',
          message: `shared pool (${pool.sharingMode}) has no NodeOverlay giving ${pool.resourceName} capacity; Karpenter only knows physical GPUs and would not provision for these pods`,
        });
      }
    }
  }
  return served;
}

/** One object id twice under a cluster's GPU folder breaks `kustomize build`. */
function checkDuplicates(
  layout: ResolvedRepoLayout,
  cluster: string,
  docs: ParsedDocument[],
  findings: Finding[],
) {
  const kustomizationPath = layout.render('clusterKustomization', { cluster });
  const slash = kustomizationPath.lastIndexOf('/');
  const folder = slash < 0 ? '' : kustomizationPath.slice(0, slash + 1);
  const seen = new Map<string, string>();
  for (const doc of docs) {
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

function checkMigFit(
  gpuModel: string | undefined,
  configName: string,
  entries: unknown,
  catalog: GpuCatalog,
  file: string,
  object: string,
  findings: Finding[],
) {
  const model = gpuModel ? findModel(catalog, gpuModel) : undefined;
  if (!model) {
    findings.push({
      file,
      object,
      rule: 'unknown-gpu-model',
      message: `cannot check MIG layout "${configName}": GPU model ${gpuModel ?? '(none)'} is not in the catalog`,
    });
    return;
  }
  if (!Array.isArray(entries)) return;
  for (const entry of entries) {
    const devices = getIn(entry, 'mig-devices');
    if (getIn(entry, 'mig-enabled') !== true || !isPlainObject(devices))
      continue;
    const counts = Object.fromEntries(
      Object.entries(devices).map(([k, v]) => [k, Number(v)]),
    );
    try {
      const result = fitMig(model, counts);
      if (!result.fits) {
        findings.push({
          file,
          object,
          rule: 'mig-layout-does-not-fit',
          message: `mig-parted config "${configName}" does not fit one ${model.id}: ${result.reason}`,
        });
      }
    } catch (e) {
      findings.push({
        file,
        object,
        rule: 'mig-layout-does-not-fit',
        message: (e as Error).message,
      });
    }
  }
}

function checkWorkloads(
  layout: ResolvedRepoLayout,
  docs: ParsedDocument[],
  pools: {
    name: string;
    file: string;
    resourceName: string;
    taints: Taint[];
  }[],
  findings: Finding[],
) {
  const appsPrefix = layoutPrefix(layout, 'workloadDir', {}, 'namespace');
  // A patch and its base form one workload: merge by namespace/name.
  const groups = new Map<string, ParsedDocument[]>();
  for (const doc of docs) {
    const obj = asKubernetesObject(doc.value);
    if (
      !obj ||
      !WORKLOAD_KINDS.has(obj.kind) ||
      !doc.path.startsWith(appsPrefix)
    )
      continue;
    const ns =
      typeof obj.metadata.namespace === 'string'
        ? obj.metadata.namespace
        : (matchLayoutValues(layout, 'workloadDir', {}, doc.path, {
            folder: true,
          })?.namespace ?? 'default');
    const id = `${ns}/${obj.kind}/${obj.metadata.name}`;
    groups.set(id, [...(groups.get(id) ?? []), doc]);
  }
  for (const group of groups.values()) {
    const podSpecs = group.map(d => getIn(d.value, 'spec', 'template', 'spec'));
    const resources = new Set<string>();
    for (const spec of podSpecs) {
      for (const c of (getIn(spec, 'containers') as unknown[] | undefined) ??
        []) {
        const limits = getIn(c, 'resources', 'limits');
        if (isPlainObject(limits))
          Object.keys(limits)
            .filter(isGpuResourceName)
            .forEach(r => resources.add(r));
      }
    }
    if (resources.size === 0) continue;
    const gpuDoc = group.find(d =>
      (
        (getIn(d.value, 'spec', 'template', 'spec', 'containers') as
          unknown[] | undefined) ?? []
      ).some(c => {
        const limits = getIn(c, 'resources', 'limits');
        return (
          isPlainObject(limits) && Object.keys(limits).some(isGpuResourceName)
        );
      }),
    )!;
    const object = objectName(gpuDoc.value);
    const tolerations = podSpecs.flatMap(s =>
      ((getIn(s, 'tolerations') as unknown[] | undefined) ?? []).filter(
        isPlainObject,
      ),
    ) as Toleration[];
    const pinned = podSpecs
      .map(s => getIn(s, 'nodeSelector', NODEPOOL_LABEL))
      .find(v => typeof v === 'string') as string | undefined;
    for (const resource of [...resources].sort()) {
      const candidates = pools.filter(
        p => p.resourceName === resource && (!pinned || p.name === pinned),
      );
      if (candidates.length === 0) {
        findings.push({
          file: gpuDoc.path,
          object,
          rule: 'unserved-resource',
          message: pinned
            ? `the workload is pinned to pool ${pinned}, which does not exist or does not serve ${resource}`
            : `no GPU pool serves ${resource}; the pods would stay Pending`,
        });
        continue;
      }
      const tolerated = candidates.filter(p =>
        p.taints
          .filter(t => t.effect !== 'PreferNoSchedule')
          .every(t => tolerations.some(tol => tolerates(tol, t))),
      );
      if (tolerated.length === 0) {
        findings.push({
          file: gpuDoc.path,
          object,
          rule: 'untolerated-taint',
          message: `no pool serving ${resource} (${candidates.map(p => p.name).join(', ')}) has taints this workload tolerates; add a toleration for ${candidates[0].taints.map(t => `${t.key}:${t.effect}`).join(', ')}`,
        });
      }
    }
  }
}
