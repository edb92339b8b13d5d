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
} from '@gpu-gitops/plugin-gpu-common';
import { POOL_OBJECT_KINDS } from './machineDeploymentPools';
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
): { pools: PoolState[]; otherNodePools: string[] } {
  const overlays = docs
    .map(d => asKubernetesObject(d.value))
    .filter(o => o?.kind === 'NodeOverlay') as PlainObject[];
  const pools: PoolState[] = [];
  const otherNodePools: string[] = [];
  const values = docs.map(d => d.value);
  for (const doc of docs) {
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
    [],
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
  const gpuNames = valuesOfKeys(requirements, GPU_NAME_KEYS);
  const deviceConfigName = labels[WELL_KNOWN_KEYS.devicePluginConfig];
  const migConfigName = labels[WELL_KNOWN_KEYS.migConfig];
  const gpuLimitKeys = Object.keys(limits).filter(isGpuResourceName);
  const ourSharing = findOurLabel(ours, POOL_LABEL_SUFFIXES.sharing);
  const hasGpuTaint =
    Array.isArray(taints) &&
    taints.some(t => isPlainObject(t) && String(t.key ?? '').includes('gpu'));
  const isGpuPool =
    requiresGpuMachines(requirements, catalog) ||
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

  const karpenter = nodePoolRequirements(requirements);
  const pool: PoolState = {
    name,
    path,
    gpuModel:
      findOurLabel(ours, POOL_LABEL_SUFFIXES.gpuModel) ??
      gpuModelOfRequirements(requirements, catalog) ??
      modelOfFamilies(
        catalog,
        gpuNames,
        valuesOfKeys(requirements, INSTANCE_FAMILY_KEYS),
      ),
    sharingMode,
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
        reason: `${String(nodePool.kind)} ${name}: its request ledger "${ledgerText}" is not readable; it is rebuilt from the workloads on the pool`,
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
