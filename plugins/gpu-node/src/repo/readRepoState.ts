import type {
  CapacityType,
  PoolState,
  RepoState,
  SharingMode,
  WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  builtinCatalog,
  GpuCatalog,
  MANAGED_BY,
  parseLedger,
  SHARING_MODES,
  WELL_KNOWN_KEYS,
  compareStrings,
} from '@gpu-gitops/plugin-gpu-common';
import {
  clusterKustomizationPath,
  clusterScopePath,
  LayoutInput,
  layoutPrefix,
  matchLayoutPath,
  matchLayoutValues,
  migConfigPath,
  resolveLayout,
  ResolvedRepoLayout,
} from '../layout/layout';
import {
  findOurLabel,
  isGpuResourceName,
  POOL_LABEL_SUFFIXES,
} from './poolLabels';
import { readFiles } from './readFiles';
import type { RepoTree } from './tree';
import {
  asKubernetesObject,
  getIn,
  isPlainObject,
  isYamlPath,
  parseCount,
  ParsedDocument,
  parseYamlDocuments,
  PlainObject,
  SkippedFile,
  stringRecord,
} from './yamlObjects';

/** RepoState plus the files the reader had to skip (and why). */
export interface RepoStateReport extends RepoState {
  skipped: SkippedFile[];
  /**
   * True when the cluster's GPU kustomization exists: the
   * gpu-cluster-bootstrap template (or a person) set the cluster up.
   */
  bootstrapped: boolean;
}

/** Reads and parses every YAML file under `prefix`; bad files are reported, not thrown. */
async function readDocuments(
  tree: RepoTree,
  prefix: string,
  skipped: SkippedFile[],
  accept: (path: string) => boolean = isYamlPath,
): Promise<ParsedDocument[]> {
  const out: ParsedDocument[] = [];
  const paths = (await tree.listFiles(prefix)).filter(accept);
  const texts = await readFiles(tree, paths);
  paths.forEach((path, i) => {
    const text = texts[i];
    if (text === undefined) return;
    const { documents, error } = parseYamlDocuments(path, text);
    if (error) skipped.push({ path, reason: error });
    out.push(...documents);
  });
  return out;
}

/**
 * Parses what a GitOps repository already holds for one cluster (GPU pools,
 * device-plugin configs, mig-parted configs) and all GPU workloads into the
 * planner's RepoState. Never throws on repository content: files it cannot
 * parse are listed in `skipped`.
 */
export interface ReadRepoStateOptions {
  /**
   * Catalog used to name the GPU model of pools without our model label
   * (from their instance types or Karpenter GPU name); built-in by default.
   */
  catalog?: GpuCatalog;
  /**
   * Read GPU workloads only from these repository folders (e.g. the one
   * workload folder a request writes) instead of every folder under the apps
   * prefix. The publisher checks out only what a change touches, so on a big
   * repository it neither fetches nor parses thousands of unrelated apps.
   */
  workloadDirs?: string[];
}

export async function readRepoState(
  tree: RepoTree,
  layout: LayoutInput,
  clusterName: string,
  options: ReadRepoStateOptions = {},
): Promise<RepoStateReport> {
  const catalog = options.catalog ?? builtinCatalog;
  const resolved = resolveLayout(layout);
  const skipped: SkippedFile[] = [];
  const cluster = { cluster: clusterName };

  // Device-plugin configs: one file per key.
  const devicePluginConfigs: Record<string, unknown> = {};
  const dpPrefix = layoutPrefix(
    resolved,
    'devicePluginConfig',
    cluster,
    'config',
  );
  const dpDocs = await readDocuments(
    tree,
    dpPrefix,
    skipped,
    path =>
      matchLayoutPath(
        resolved,
        'devicePluginConfig',
        cluster,
        'config',
        path,
      ) !== undefined,
  );
  for (const doc of dpDocs) {
    const name = matchLayoutPath(
      resolved,
      'devicePluginConfig',
      cluster,
      'config',
      doc.path,
    )!;
    if (isPlainObject(doc.value) && doc.value.version !== undefined) {
      devicePluginConfigs[name] = doc.value;
    } else {
      skipped.push({
        path: doc.path,
        reason: 'not a device-plugin config (no `version`)',
      });
    }
  }

  // mig-parted config: one file, entries under `mig-configs`.
  const migConfigs: Record<string, unknown> = {};
  const migPath = migConfigPath(resolved, clusterName);
  const migText = await tree.readFile(migPath);
  if (migText !== undefined) {
    const { documents, error } = parseYamlDocuments(migPath, migText);
    if (error) skipped.push({ path: migPath, reason: error });
    for (const doc of documents) {
      const entries = getIn(doc.value, 'mig-configs');
      if (isPlainObject(entries)) Object.assign(migConfigs, entries);
      else skipped.push({ path: migPath, reason: 'no `mig-configs` map' });
    }
  }

  // Pools: every GPU NodePool in the pool folder.
  const poolPrefix = layoutPrefix(resolved, 'nodePool', cluster, 'pool');
  const poolDocs = await readDocuments(tree, poolPrefix, skipped);
  const overlays = poolDocs
    .map(d => asKubernetesObject(d.value))
    .filter(o => o?.kind === 'NodeOverlay') as PlainObject[];
  const pools: PoolState[] = [];
  const otherNodePools = new Set<string>();
  for (const doc of poolDocs) {
    const obj = asKubernetesObject(doc.value);
    if (!obj || obj.kind !== 'NodePool') continue;
    const pool = parsePool(
      obj,
      doc.path,
      overlays,
      devicePluginConfigs,
      migConfigs,
      catalog,
      skipped,
    );
    if (pool) pools.push(pool);
    else otherNodePools.add(obj.metadata.name);
  }
  // Every other NodePool of the cluster's folder (hand-written ones beside
  // the GPU folder): names a new pool must not take.
  const scope = clusterScopePath(resolved, clusterName);
  const scopeFiles = (await tree.listFiles(scope)).filter(
    path => isYamlPath(path) && !path.startsWith(poolPrefix),
  );
  const scopeTexts = await readFiles(tree, scopeFiles);
  for (const [i, path] of scopeFiles.entries()) {
    const text = scopeTexts[i];
    // Only files that can hold a NodePool are parsed (a cluster folder may be big).
    if (text === undefined || !/\bkind:\s*['"]?NodePool\b/.test(text)) continue;
    for (const doc of parseYamlDocuments(path, text).documents) {
      const obj = asKubernetesObject(doc.value);
      if (obj?.kind === 'NodePool') otherNodePools.add(obj.metadata.name);
    }
  }

  // Workloads: every GPU Deployment / StatefulSet (or patch) under the apps folder.
  const workloadDirs = options.workloadDirs ?? [
    layoutPrefix(resolved, 'workloadDir', {}, 'namespace'),
  ];
  const workloadDocuments: ParsedDocument[] = [];
  for (const dir of workloadDirs) {
    workloadDocuments.push(...(await readDocuments(tree, dir, skipped)));
  }
  const workloads = parseWorkloads(workloadDocuments, pools, resolved);

  pools.sort((a, b) => compareStrings(a.name, b.name));
  const bootstrapped =
    (await tree.readFile(clusterKustomizationPath(resolved, clusterName))) !==
    undefined;
  return {
    pools,
    devicePluginConfigs,
    migConfigs,
    workloads,
    otherNodePools: [...otherNodePools].sort(),
    skipped,
    bootstrapped,
  };
}

function requirementValues(requirements: unknown, key: string): string[] {
  if (!Array.isArray(requirements)) return [];
  const out: string[] = [];
  for (const r of requirements) {
    if (!isPlainObject(r) || r.key !== key || r.operator !== 'In') continue;
    if (Array.isArray(r.values)) out.push(...r.values.map(String));
  }
  return out;
}

function parsePool(
  nodePool: PlainObject & { metadata: PlainObject & { name: string } },
  path: string,
  overlays: PlainObject[],
  devicePluginConfigs: Record<string, unknown>,
  migConfigs: Record<string, unknown>,
  catalog: GpuCatalog,
  skipped: SkippedFile[],
): PoolState | undefined {
  const name = nodePool.metadata.name;
  const template = getIn(nodePool, 'spec', 'template');
  const labels = stringRecord(getIn(template, 'metadata', 'labels'));
  // Our descriptive keys may sit on the NodePool's own annotations / labels too.
  const ours = {
    ...stringRecord(getIn(nodePool, 'metadata', 'annotations')),
    ...stringRecord(getIn(nodePool, 'metadata', 'labels')),
    ...labels,
  };
  const requirements = getIn(template, 'spec', 'requirements');
  const limits = stringRecord(getIn(nodePool, 'spec', 'limits'));
  const taints = getIn(template, 'spec', 'taints');
  const gpuNames = requirementValues(
    requirements,
    WELL_KNOWN_KEYS.karpenterInstanceGpuName,
  );
  const deviceConfigName = labels[WELL_KNOWN_KEYS.devicePluginConfig];
  const migConfigName = labels[WELL_KNOWN_KEYS.migConfig];
  const gpuLimitKeys = Object.keys(limits).filter(isGpuResourceName);
  const ourSharing = findOurLabel(ours, POOL_LABEL_SUFFIXES.sharing);
  const hasGpuTaint =
    Array.isArray(taints) &&
    taints.some(t => isPlainObject(t) && String(t.key ?? '').includes('gpu'));
  const isGpuPool =
    gpuNames.length > 0 ||
    gpuLimitKeys.length > 0 ||
    ourSharing !== undefined ||
    deviceConfigName !== undefined ||
    migConfigName !== undefined ||
    hasGpuTaint;
  if (!isGpuPool) return undefined;

  const deviceConfig = deviceConfigName
    ? devicePluginConfigs[deviceConfigName]
    : undefined;
  const sharingMode = inferSharingMode(ourSharing, deviceConfig, migConfigName);

  // Resource name: our label, else a GPU limit, else a NodeOverlay capacity of this pool.
  const overlayKeys = overlays
    .filter(o =>
      requirementValues(
        getIn(o, 'spec', 'requirements'),
        WELL_KNOWN_KEYS.karpenterNodePool,
      ).includes(name),
    )
    .flatMap(o => Object.keys(stringRecord(getIn(o, 'spec', 'capacity'))))
    .filter(isGpuResourceName);
  const resourceName =
    findOurLabel(ours, POOL_LABEL_SUFFIXES.resourceName) ??
    gpuLimitKeys.find(k => k !== 'nvidia.com/gpu') ??
    overlayKeys[0] ??
    gpuLimitKeys[0] ??
    'nvidia.com/gpu';

  const slicesLabel = parseCount(
    findOurLabel(ours, POOL_LABEL_SUFFIXES.slicesPerGpu),
  );
  const slicesPerGpu = slicesLabel ?? sharingReplicas(deviceConfig);
  const migProfile =
    findOurLabel(ours, POOL_LABEL_SUFFIXES.migProfile) ??
    singleMigProfile(migConfigName ? migConfigs[migConfigName] : undefined);

  const capacityTypes = requirementValues(
    requirements,
    WELL_KNOWN_KEYS.karpenterCapacityType,
  ).filter((c): c is CapacityType => c === 'spot' || c === 'on-demand');
  const pool: PoolState = {
    name,
    path,
    gpuModel:
      findOurLabel(ours, POOL_LABEL_SUFFIXES.gpuModel) ??
      modelFromCatalog(
        catalog,
        requirementValues(requirements, WELL_KNOWN_KEYS.instanceType),
        gpuNames,
      ),
    sharingMode,
    resourceName,
    instanceTypes: requirementValues(
      requirements,
      WELL_KNOWN_KEYS.instanceType,
    ),
    capacityTypes,
  };
  if (slicesPerGpu !== undefined) pool.slicesPerGpu = slicesPerGpu;
  if (migProfile !== undefined) pool.migProfile = migProfile;
  if (deviceConfigName !== undefined) pool.deviceConfigName = deviceConfigName;
  if (migConfigName !== undefined) pool.migConfigName = migConfigName;
  const limit = parseCount(limits[resourceName]);
  if (limit !== undefined) pool.limit = limit;
  const allLimits = Object.fromEntries(
    Object.entries(limits)
      .map(([k, v]) => [k, parseCount(v)] as const)
      .filter((e): e is readonly [string, number] => e[1] !== undefined),
  );
  if (Object.keys(allLimits).length > 0) pool.limits = allLimits;
  const ownLabels = stringRecord(getIn(nodePool, 'metadata', 'labels'));
  pool.managed = ownLabels[WELL_KNOWN_KEYS.managedBy] === MANAGED_BY;
  const annotations = stringRecord(getIn(nodePool, 'metadata', 'annotations'));
  const ledgerText = findOurLabel(annotations, POOL_LABEL_SUFFIXES.requests);
  if (ledgerText !== undefined) {
    const ledger = parseLedger(ledgerText);
    if (ledger) pool.ledger = ledger;
    else {
      skipped.push({
        path,
        reason: `NodePool ${name}: its request ledger "${ledgerText}" is not readable; it is rebuilt from the workloads on the pool`,
      });
    }
  }
  const floor = parseCount(
    findOurLabel(annotations, POOL_LABEL_SUFFIXES.limitFloor),
  );
  if (floor !== undefined) pool.limitFloor = floor;
  if (Array.isArray(taints)) {
    pool.taints = taints
      .filter(isPlainObject)
      .filter(t => typeof t.key === 'string' && typeof t.effect === 'string')
      .map(t => ({
        key: String(t.key),
        ...(t.value !== undefined && t.value !== null
          ? { value: String(t.value) }
          : {}),
        effect: String(t.effect),
      }));
  }
  return pool;
}

/**
 * The catalog model a pool runs, for pools without our model label: the one
 * model all its instance types carry, else the one model whose instance types
 * have its Karpenter GPU name, else the Karpenter name itself (when single).
 */
function modelFromCatalog(
  catalog: GpuCatalog,
  instanceTypes: string[],
  gpuNames: string[],
): string | undefined {
  const byType = new Set(
    instanceTypes
      .map(name => catalog.instanceTypes.find(t => t.name === name)?.gpuModel)
      .filter((m): m is string => m !== undefined),
  );
  if (byType.size === 1) return [...byType][0];
  const byName = new Set(
    catalog.instanceTypes
      .filter(t => t.karpenterGpuName && gpuNames.includes(t.karpenterGpuName))
      .map(t => t.gpuModel),
  );
  if (byName.size === 1) return [...byName][0];
  return gpuNames.length === 1 ? gpuNames[0] : undefined;
}

function inferSharingMode(
  label: string | undefined,
  deviceConfig: unknown,
  migConfigName: string | undefined,
): SharingMode {
  if (label && (SHARING_MODES as readonly string[]).includes(label)) {
    return label as SharingMode;
  }
  if (migConfigName && migConfigName !== 'all-disabled') return 'mig';
  if (getIn(deviceConfig, 'sharing', 'mps')) return 'mps';
  if (getIn(deviceConfig, 'sharing', 'timeSlicing')) return 'time-slicing';
  return 'exclusive';
}

function sharingReplicas(deviceConfig: unknown): number | undefined {
  for (const mode of ['timeSlicing', 'mps']) {
    const replicas = parseCount(
      getIn(deviceConfig, 'sharing', mode, 'resources', 0, 'replicas'),
    );
    if (replicas !== undefined) return replicas;
  }
  return undefined;
}

function singleMigProfile(entries: unknown): string | undefined {
  if (!Array.isArray(entries)) return undefined;
  const profiles = new Set<string>();
  for (const entry of entries) {
    const devices = getIn(entry, 'mig-devices');
    if (isPlainObject(devices))
      Object.keys(devices).forEach(p => profiles.add(p));
  }
  return profiles.size === 1 ? [...profiles][0] : undefined;
}

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet']);

interface WorkloadSighting {
  path: string;
  namespace?: string;
  name: string;
  replicas?: number;
  gpu?: { resourceName: string; perReplica: number };
  pool?: string;
  kubernetesId?: string;
}

function parseWorkloads(
  docs: ParsedDocument[],
  pools: PoolState[],
  layout: ResolvedRepoLayout,
): WorkloadState[] {
  const claimTemplates = readClaimTemplates(docs, layout);
  const sightings: WorkloadSighting[] = [];
  for (const doc of docs) {
    const obj = asKubernetesObject(doc.value);
    if (!obj || !WORKLOAD_KINDS.has(obj.kind)) continue;
    const podSpec = getIn(obj, 'spec', 'template', 'spec');
    const containers = [
      ...((getIn(podSpec, 'containers') as unknown[]) ?? []),
    ].filter(isPlainObject);
    const totals = new Map<string, number>();
    for (const c of containers) {
      for (const [key, value] of Object.entries(
        stringRecord(getIn(c, 'resources', 'limits')),
      )) {
        if (!isGpuResourceName(key)) continue;
        totals.set(key, (totals.get(key) ?? 0) + (parseCount(value) ?? 0));
      }
    }
    // DRA workloads request devices of a DeviceClass through claim templates.
    const claims = getIn(podSpec, 'resourceClaims');
    if (totals.size === 0 && Array.isArray(claims) && claims.length > 0) {
      const namespace =
        typeof obj.metadata.namespace === 'string'
          ? obj.metadata.namespace
          : namespaceFromPath(doc.path, layout);
      for (const claim of claims) {
        const template = getIn(claim, 'resourceClaimTemplateName');
        const found =
          typeof template === 'string'
            ? claimTemplates.get(`${namespace}/${template}`)
            : undefined;
        for (const [deviceClass, count] of found ?? [
          ['resource.k8s.io/claims', 1] as const,
        ]) {
          totals.set(deviceClass, (totals.get(deviceClass) ?? 0) + count);
        }
      }
    }
    const nodeSelector = stringRecord(getIn(podSpec, 'nodeSelector'));
    const labels = {
      ...stringRecord(getIn(obj, 'spec', 'template', 'metadata', 'labels')),
      ...stringRecord(getIn(obj, 'metadata', 'labels')),
    };
    const [first] = [...totals.entries()];
    sightings.push({
      path: doc.path,
      namespace:
        typeof obj.metadata.namespace === 'string'
          ? obj.metadata.namespace
          : undefined,
      name: obj.metadata.name,
      replicas: parseCount(getIn(obj, 'spec', 'replicas')),
      gpu: first ? { resourceName: first[0], perReplica: first[1] } : undefined,
      pool: nodeSelector[WELL_KNOWN_KEYS.karpenterNodePool],
      kubernetesId: labels[WELL_KNOWN_KEYS.backstageKubernetesId],
    });
  }

  // A patch and its base describe one workload: merge sightings by id.
  const byId = new Map<string, WorkloadSighting[]>();
  for (const s of sightings) {
    const namespace = s.namespace ?? namespaceFromPath(s.path, layout);
    const id = `${namespace}/${s.name}`;
    byId.set(id, [...(byId.get(id) ?? []), { ...s, namespace }]);
  }
  const workloads: WorkloadState[] = [];
  for (const [id, group] of [...byId.entries()].sort(([a], [b]) =>
    compareStrings(a, b),
  )) {
    const gpu = group.find(s => s.gpu);
    if (!gpu?.gpu) continue;
    const replicas =
      gpu.replicas ?? group.find(s => s.replicas !== undefined)?.replicas ?? 1;
    const poolName =
      gpu.pool ??
      group.find(s => s.pool)?.pool ??
      pools.find(
        p =>
          p.resourceName === gpu.gpu!.resourceName &&
          p.resourceName !== 'nvidia.com/gpu',
      )?.name;
    const kubernetesId = group.find(s => s.kubernetesId)?.kubernetesId;
    const workload: WorkloadState = {
      id,
      namespace: gpu.namespace!,
      name: gpu.name,
      path: gpu.path,
      resourceName: gpu.gpu.resourceName,
      replicas,
      perReplica: gpu.gpu.perReplica,
    };
    if (poolName) workload.pool = poolName;
    if (kubernetesId) workload.kubernetesId = kubernetesId;
    workloads.push(workload);
  }
  return workloads;
}

/**
 * ResourceClaimTemplates by `<namespace>/<name>`: the DeviceClass and count of
 * each device request (`exactly` in resource.k8s.io/v1, flat in v1beta1).
 */
function readClaimTemplates(
  docs: ParsedDocument[],
  layout: ResolvedRepoLayout,
): Map<string, [string, number][]> {
  const out = new Map<string, [string, number][]>();
  for (const doc of docs) {
    const obj = asKubernetesObject(doc.value);
    if (!obj || obj.kind !== 'ResourceClaimTemplate') continue;
    const namespace =
      typeof obj.metadata.namespace === 'string'
        ? obj.metadata.namespace
        : namespaceFromPath(doc.path, layout);
    const requests = getIn(obj, 'spec', 'spec', 'devices', 'requests');
    const devices: [string, number][] = [];
    for (const request of Array.isArray(requests) ? requests : []) {
      const exact = getIn(request, 'exactly') ?? request;
      const deviceClass = getIn(exact, 'deviceClassName');
      if (typeof deviceClass !== 'string') continue;
      devices.push([deviceClass, parseCount(getIn(exact, 'count')) ?? 1]);
    }
    out.set(`${namespace}/${obj.metadata.name}`, devices);
  }
  return out;
}

/** The namespace a workload file's folder stands for in the layout (`apps/<namespace>/...`). */
function namespaceFromPath(path: string, layout: ResolvedRepoLayout): string {
  return (
    matchLayoutValues(layout, 'workloadDir', {}, path, { folder: true })
      ?.namespace ?? 'default'
  );
}
