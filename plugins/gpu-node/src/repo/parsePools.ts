/**
 * GPU pools from the documents of the pool folder: each Karpenter NodePool
 * that is a GPU pool (with its NodeOverlays, device-plugin and MIG configs),
 * and each Cluster API MachineDeployment with our pool annotations, becomes a
 * PoolState; the names of the other NodePools and MachineDeployments are kept.
 */
import type { PoolState, SharingMode } from '@gpu-gitops/plugin-gpu-common';
import {
  DEFAULT_MIG_CONFIG,
  allowedCapacityTypes,
  GpuCatalog,
  gpuModelOfRequirements,
  MANAGED_BY,
  parseLedger,
  requiresGpuMachines,
  SHARING_MODES,
  WELL_KNOWN_KEYS,
  runSteps,
} from '@gpu-gitops/plugin-gpu-common';
import { POOL_OBJECT_KINDS } from './machineDeploymentPools';
import { runStepsInTurns } from './eventLoopTurns';
import { NODE_FEATURE_RULE, ruleNodeNames } from './nodeFeatureRulePools';
import {
  hasPoolMarks,
  poolObjectAsNodePool,
  type PoolObject,
} from './poolObjectAsNodePool';
import { nodePoolRequirements } from './nodePoolRequirements';
import {
  findOurLabel,
  isGpuResourceName,
  POOL_LABEL_SUFFIXES,
} from './poolLabels';
import {
  asKubernetesObject,
  getIn,
  isPlainObject,
  parseCount,
  ParsedDocument,
  PlainObject,
  SkippedFile,
  stringRecord,
} from './yamlObjects';

/** @public */
export interface PoolConfigs {
  devicePluginConfigs: Record<string, unknown>;
  migConfigs: Record<string, unknown>;
}

/**
 *  Pools in document order, and the names of the NodePools that are not GPU pools.
 *
 * @public
 */
export function parsePools(
  docs: ParsedDocument[],
  configs: PoolConfigs,
  catalog: GpuCatalog,
  skipped: SkippedFile[],
): ParsedPools {
  return runSteps(poolSteps(docs, configs, catalog, skipped));
}

/** @public */
export interface ParsedPools {
  pools: PoolState[];
  otherNodePools: string[];
}

/**
 * `parsePools` with a turn of the event loop between pools when one is due:
 * a scale cluster's 2k pools, each matched against the catalog, held the
 * backend for a third of a second.
 */
export function parsePoolsInTurns(
  docs: ParsedDocument[],
  configs: PoolConfigs,
  catalog: GpuCatalog,
  skipped: SkippedFile[],
  turn?: () => Promise<void>,
): Promise<ParsedPools> {
  return runStepsInTurns(poolSteps(docs, configs, catalog, skipped), turn);
}

/** The work of `parsePools`, stopping before each document. */
function* poolSteps(
  docs: ParsedDocument[],
  configs: PoolConfigs,
  catalog: GpuCatalog,
  skipped: SkippedFile[],
): Generator<void, ParsedPools> {
  const overlays = overlaysByPool(
    docs
      .map(d => asKubernetesObject(d.value))
      .filter(o => o?.kind === 'NodeOverlay') as PlainObject[],
  );
  const pools: PoolState[] = [];
  const otherNodePools: string[] = [];
  const values = docs.map(d => d.value);
  for (const doc of docs) {
    yield;
    const obj = asKubernetesObject(doc.value);
    if (!obj || !POOL_OBJECT_KINDS.includes(obj.kind)) continue;
    if (!hasPoolMarks(obj)) {
      otherNodePools.push(obj.metadata.name); // someone else's: a name we never take
      continue;
    }
    const parsed = parsePool(
      poolObjectAsNodePool(obj, values),
      doc.path,
      overlays,
      configs.devicePluginConfigs,
      configs.migConfigs,
      catalog,
      skipped,
    );
    const nodeNames =
      obj.kind === NODE_FEATURE_RULE ? ruleNodeNames(obj) : undefined;
    const pool = parsed && nodeNames ? { ...parsed, nodeNames } : parsed;
    if (pool) pools.push(pool);
    else otherNodePools.push(obj.metadata.name);
  }
  return { pools, otherNodePools };
}

/**
 * A team's own GPU MachineDeployment (no annotations of ours), read as the
 * NodePool it stands for (`machineDeploymentAsNodePool`), as the pool it
 * would be once adopted, as `parsePools` reads the product's: its
 * machine's model from the catalog, its nodes' device-plugin config label.
 * Undefined when its machine is not a catalog GPU machine.
 */
export function handWrittenMachineDeploymentPool(
  asNodePool: PoolObject,
  path: string,
  configs: PoolConfigs,
  catalog: GpuCatalog,
): PoolState | undefined {
  return parsePool(
    asNodePool,
    path,
    new Map(),
    configs.devicePluginConfigs,
    configs.migConfigs,
    catalog,
    [],
  );
}

/**
 * The EC2 instance family labels hand-written pools often require instead of
 * instance types: Karpenter's AWS provider's, and EKS Auto Mode's (the same
 * label under its own prefix, gpu-common providers/eksAutoModeMachines.ts).
 */
const INSTANCE_FAMILY_KEYS = [
  'karpenter.k8s.aws/instance-family',
  'eks.amazonaws.com/instance-family',
];
/** The GPU name labels of the same two. */
const GPU_NAME_KEYS = [
  WELL_KNOWN_KEYS.karpenterInstanceGpuName,
  'eks.amazonaws.com/instance-gpu-name',
];

function requirementValues(requirements: unknown, key: string): string[] {
  if (!Array.isArray(requirements)) return [];
  const out: string[] = [];
  for (const r of requirements) {
    if (!isPlainObject(r) || r.key !== key || r.operator !== 'In') continue;
    if (Array.isArray(r.values)) out.push(...r.values.map(String));
  }
  return out;
}

/** The `In` values of requirements on any of `keys`. */
function valuesOfKeys(requirements: unknown, keys: string[]): string[] {
  return keys.flatMap(key => requirementValues(requirements, key));
}

type NamedObject = PlainObject & { metadata: PlainObject & { name: string } };

/** What `parsePool` reads of a pool object (a NodePool, or another kind read as one). */
interface PoolFields {
  name: string;
  /** The template's labels: the labels of the pool's nodes. */
  nodeLabels: Record<string, string>;
  /** Our descriptive keys: on the object's annotations, its labels or its nodes' labels. */
  ours: Record<string, string>;
  annotations: Record<string, string>;
  requirements: unknown;
  limits: Record<string, string>;
  taints: unknown;
  deviceConfigName?: string;
  migConfigName?: string;
}

function poolFields(nodePool: NamedObject): PoolFields {
  const template = getIn(nodePool, 'spec', 'template');
  const nodeLabels = stringRecord(getIn(template, 'metadata', 'labels'));
  const annotations = stringRecord(getIn(nodePool, 'metadata', 'annotations'));
  return {
    name: nodePool.metadata.name,
    nodeLabels,
    // Our descriptive keys may sit on the NodePool's own annotations / labels too.
    ours: {
      ...annotations,
      ...stringRecord(getIn(nodePool, 'metadata', 'labels')),
      ...nodeLabels,
    },
    annotations,
    requirements: getIn(template, 'spec', 'requirements'),
    limits: stringRecord(getIn(nodePool, 'spec', 'limits')),
    taints: getIn(template, 'spec', 'taints'),
    deviceConfigName: nodeLabels[WELL_KNOWN_KEYS.devicePluginConfig],
    migConfigName: nodeLabels[WELL_KNOWN_KEYS.migConfig],
  };
}

function gpuLimitKeys(fields: PoolFields): string[] {
  return Object.keys(fields.limits).filter(isGpuResourceName);
}

/** A pool of GPU machines, or one that says it is one (GPU limits, our sharing label, GPU configs, a GPU taint). */
function isGpuPool(fields: PoolFields, catalog: GpuCatalog): boolean {
  const { taints } = fields;
  const hasGpuTaint =
    Array.isArray(taints) &&
    taints.some(t => isPlainObject(t) && String(t.key ?? '').includes('gpu'));
  return (
    requiresGpuMachines(fields.requirements, catalog) ||
    gpuLimitKeys(fields).length > 0 ||
    findOurLabel(fields.ours, POOL_LABEL_SUFFIXES.sharing) !== undefined ||
    fields.deviceConfigName !== undefined ||
    fields.migConfigName !== undefined ||
    hasGpuTaint
  );
}

/**
 * The NodeOverlays by each pool they name (`karpenter.sh/nodepool In`), in
 * document order: a cluster's pool files hold a pool and its overlays each,
 * and looking through all 4k overlays for each of 2k pools held a read of
 * the state for seconds.
 */
function overlaysByPool(
  overlays: readonly PlainObject[],
): Map<string, PlainObject[]> {
  const byPool = new Map<string, PlainObject[]>();
  for (const overlay of overlays) {
    const pools = requirementValues(
      getIn(overlay, 'spec', 'requirements'),
      WELL_KNOWN_KEYS.karpenterNodePool,
    );
    for (const pool of new Set(pools)) {
      const named = byPool.get(pool);
      if (named) named.push(overlay);
      else byPool.set(pool, [overlay]);
    }
  }
  return byPool;
}

function parsePool(
  nodePool: PlainObject & { metadata: PlainObject & { name: string } },
  path: string,
  overlays: ReadonlyMap<string, readonly PlainObject[]>,
  devicePluginConfigs: Record<string, unknown>,
  migConfigs: Record<string, unknown>,
  catalog: GpuCatalog,
  skipped: SkippedFile[],
): PoolState | undefined {
  const fields = poolFields(nodePool);
  if (!isGpuPool(fields, catalog)) return undefined;
  const { name, ours, requirements, deviceConfigName, migConfigName } = fields;
  const deviceConfig = deviceConfigName
    ? devicePluginConfigs[deviceConfigName]
    : undefined;
  const resourceName = poolResourceName(fields, overlays);
  const karpenter = nodePoolRequirements(requirements);
  const pool: PoolState = {
    name,
    path,
    gpuModel: poolGpuModel(fields, catalog),
    sharingMode: inferSharingMode(
      findOurLabel(ours, POOL_LABEL_SUFFIXES.sharing),
      deviceConfig,
      migConfigName,
    ),
    resourceName,
    instanceTypes: requirementValues(
      requirements,
      WELL_KNOWN_KEYS.instanceType,
    ),
    capacityTypes: allowedCapacityTypes(karpenter),
  };
  // Only Karpenter launches what requirements allow; the other kinds come
  // here converted, with their one machine as their instance type.
  if (nodePool.kind === 'NodePool') pool.requirements = karpenter;
  const slicesPerGpu =
    parseCount(findOurLabel(ours, POOL_LABEL_SUFFIXES.slicesPerGpu)) ??
    sharingReplicas(deviceConfig);
  if (slicesPerGpu !== undefined) pool.slicesPerGpu = slicesPerGpu;
  const migProfile =
    findOurLabel(ours, POOL_LABEL_SUFFIXES.migProfile) ??
    singleMigProfile(migConfigName ? migConfigs[migConfigName] : undefined);
  if (migProfile !== undefined) pool.migProfile = migProfile;
  if (deviceConfigName !== undefined) pool.deviceConfigName = deviceConfigName;
  if (migConfigName !== undefined) pool.migConfigName = migConfigName;
  Object.assign(pool, poolLimits(fields.limits, resourceName));
  const ownLabels = stringRecord(getIn(nodePool, 'metadata', 'labels'));
  pool.managed = ownLabels[WELL_KNOWN_KEYS.managedBy] === MANAGED_BY;
  const ledger = poolLedger(nodePool, fields, path, skipped);
  if (ledger) pool.ledger = ledger;
  const floor = parseCount(
    findOurLabel(fields.annotations, POOL_LABEL_SUFFIXES.limitFloor),
  );
  if (floor !== undefined) pool.limitFloor = floor;
  if (Array.isArray(fields.taints)) pool.taints = nodeTaints(fields.taints);
  return pool;
}
/** Resource name: our label, else a GPU limit, else a NodeOverlay capacity of this pool. */
function poolResourceName(
  fields: PoolFields,
  overlays: ReadonlyMap<string, readonly PlainObject[]>,
): string {
  const limitKeys = gpuLimitKeys(fields);
  const overlayKeys = (overlays.get(fields.name) ?? [])
    .flatMap(o => Object.keys(stringRecord(getIn(o, 'spec', 'capacity'))))
    .filter(isGpuResourceName);
  return (
    findOurLabel(fields.ours, POOL_LABEL_SUFFIXES.resourceName) ??
    limitKeys.find(k => k !== 'nvidia.com/gpu') ??
    overlayKeys[0] ??
    limitKeys[0] ??
    'nvidia.com/gpu'
  );
}

/** Our label, else the model the requirements name, else the one of their instance families or GPU names. */
function poolGpuModel(
  fields: PoolFields,
  catalog: GpuCatalog,
): string | undefined {
  const { requirements } = fields;
  return (
    findOurLabel(fields.ours, POOL_LABEL_SUFFIXES.gpuModel) ??
    gpuModelOfRequirements(requirements, catalog) ??
    modelOfFamilies(
      catalog,
      valuesOfKeys(requirements, GPU_NAME_KEYS),
      valuesOfKeys(requirements, INSTANCE_FAMILY_KEYS),
    )
  );
}

/** The limit on the pool's resource, and every limit that counts, when set. */
function poolLimits(
  limits: Record<string, string>,
  resourceName: string,
): Pick<PoolState, 'limit' | 'limits'> {
  const out: Pick<PoolState, 'limit' | 'limits'> = {};
  const limit = parseCount(limits[resourceName]);
  if (limit !== undefined) out.limit = limit;
  const allLimits = Object.fromEntries(
    Object.entries(limits)
      .map(([k, v]) => [k, parseCount(v)] as const)
      .filter((e): e is readonly [string, number] => e[1] !== undefined),
  );
  if (Object.keys(allLimits).length > 0) out.limits = allLimits;
  return out;
}

/** The pool's request ledger; one that does not read is reported as skipped (rebuilt from the workloads). */
function poolLedger(
  nodePool: NamedObject,
  fields: PoolFields,
  path: string,
  skipped: SkippedFile[],
): PoolState['ledger'] {
  const text = findOurLabel(fields.annotations, POOL_LABEL_SUFFIXES.requests);
  if (text === undefined) return undefined;
  const ledger = parseLedger(text);
  if (!ledger) {
    skipped.push({
      path,
      reason: `${String(nodePool.kind)} ${fields.name}: its request ledger "${text}" is not readable; it is rebuilt from the workloads on the pool`,
    });
  }
  return ledger;
}

/** The taints with a key and an effect, as the pool's nodes carry them. */
function nodeTaints(taints: unknown[]): NonNullable<PoolState['taints']> {
  return taints
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

/**
 * The catalog model of a pool whose requirements name no machine or GPU of
 * one model (`gpuModelOfRequirements`): the one model of its EC2 instance
 * families (`g4dn`: T4), else the Karpenter GPU name itself (when single).
 */
function modelOfFamilies(
  catalog: GpuCatalog,
  gpuNames: string[],
  families: string[],
): string | undefined {
  const byFamily = new Set(
    catalog.instanceTypes
      .filter(t => t.provider === 'aws' && families.includes(t.family))
      .map(t => t.gpuModel),
  );
  if (byFamily.size === 1) return [...byFamily][0];
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
  if (migConfigName && migConfigName !== DEFAULT_MIG_CONFIG) return 'mig';
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
