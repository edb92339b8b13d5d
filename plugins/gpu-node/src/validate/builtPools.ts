import {
  findInstanceType,
  findModel,
  fitMig,
  GpuCatalog,
  GpuModel,
  machineProviderOfNodeClass,
  machinesRequirementsAllow,
  MigStrategy,
  type NodeTaint,
  WELL_KNOWN_KEYS,
  advertisedResources,
  excludesGpuMachines,
  migInstancesPerGpu,
  nodeClassConfig,
  operatorDefaultConfigOn,
  type AdvertisedResource,
  type ClusterGpuStack,
  type InstanceType,
  type OverlaidMachine,
  devicePluginSlicing,
  poolGpuProducts,
  type PoolGpuFacts,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize';
import { nodePoolRequirements } from '../repo/nodePoolRequirements';
import { findOurLabel, POOL_LABEL_SUFFIXES } from '../repo/poolLabels';
import {
  getIn,
  isPlainObject,
  parseCount,
  stringRecord,
} from '../repo/yamlObjects';
import { withOverlays } from './builtOverlays';
import type { BuiltRoot } from './builtRoots';
import { configRuleFindings } from './configRules';
import type { Finding } from './findings';
import {
  GpuConfigMapNames,
  GpuConfigMaps,
  gpuConfigMapsFor,
} from './gpuConfigMaps';
import { sourceFileOf } from './sourceLocator';
import { mapInTurns } from '../repo/eventLoopTurns';
import { topologyMachineDeployments } from '../repo/topologyMachineDeployments';
import type { SourceTree } from './sourceTree';
import {
  MACHINE_DEPLOYMENT,
  runsCatalogGpuMachine,
} from '../repo/machineDeploymentPools';
import {
  hasPoolMarks,
  poolObjectAsNodePool,
} from '../repo/poolObjectAsNodePool';

/** Karpenter's well-known label for the GPUs of an instance type (Karpenter AWS docs, "Instance Types"). */
export const INSTANCE_GPU_COUNT_LABEL = 'karpenter.k8s.aws/instance-gpu-count';

/** The device plugin's resource for a whole GPU (and for its slices when not renamed). */
const WHOLE_GPU = 'nvidia.com/gpu';

/** A NodePool as kustomize built it, with what its nodes will advertise. */
export interface BuiltPool {
  root: BuiltRoot;
  object: BuiltObject;
  name: string;
  /** Source file to report on. */
  file: string;
  taints: NodeTaint[];
  /** `spec.limits` as counts (a quantity we cannot read is left out). */
  limits: Record<string, number>;
  /** GPUs per node of its machines (empty: unknown, and nothing is judged on it). */
  gpuCounts: number[];
  /** The catalog machines it may launch (empty: none the catalog knows). */
  machines: InstanceType[];
  /**
   * A NodePool's machines as Karpenter believes them under the NodeOverlays
   * of its root (`builtOverlays.ts`); undefined when the root builds none.
   */
  overlaid?: OverlaidMachine[];
  /**
   * What each node advertises per GPU. Undefined when a config it selects
   * is missing, broken or does not fit its GPU: that is reported once, and
   * nothing is derived from it.
   */
  advertised?: AdvertisedResource[];
  /** Which config decides `advertised`, for messages (e.g. `config ts-4`). */
  configNote: string;
  /**
   * A DRA pool (its sharing label `dra`): the DeviceClass its claims name
   * and the claims one GPU takes. Its nodes run the DRA driver, not the
   * device plugin, so `advertised` does not describe them.
   */
  dra?: DraPoolUnits;
  /** Its GPU model: the pool's model label, else the one model of its catalog machines. */
  gpuModel?: string;
  /**
   * The `nvidia.com/gpu.product` values GPU Feature Discovery gives its nodes
   * (gpu-common `poolGpuProducts`); undefined when its model, or how its
   * config shares the GPUs, is not known.
   */
  gpuProducts?: string[];
}

/** @see BuiltPool.dra */
export interface DraPoolUnits {
  deviceClass: string;
  unitsPerGpu: number;
}

/**
 * A DRA pool's claims per GPU, by gpu-common's rule (`capacity/poolUnits.ts`
 * `unitsPerGpuOf`): the MIG instances of its profile in its mig-parted
 * layout (static MIG), else the driver's consumable shares it was planned
 * with (its slices-per-gpu label), else one claim per whole GPU.
 */
function draPoolUnits(
  ours: Record<string, string>,
  migEntries: unknown,
): DraPoolUnits | undefined {
  const deviceClass = findOurLabel(ours, POOL_LABEL_SUFFIXES.resourceName);
  if (
    findOurLabel(ours, POOL_LABEL_SUFFIXES.sharing) !== 'dra' ||
    deviceClass === undefined
  ) {
    return undefined;
  }
  const migProfile = findOurLabel(ours, POOL_LABEL_SUFFIXES.migProfile);
  const shares = parseCount(
    findOurLabel(ours, POOL_LABEL_SUFFIXES.slicesPerGpu),
  );
  const unitsPerGpu = migProfile
    ? migInstancesPerGpu(migEntries).get(migProfile)
    : shares;
  return { deviceClass, unitsPerGpu: unitsPerGpu ?? 1 };
}

const dra = (units: DraPoolUnits | undefined) => (units ? { dra: units } : {});

/** `In` values of a NodePool / NodeOverlay requirement. */
export function requirementValues(
  requirements: unknown,
  key: string,
): string[] {
  if (!Array.isArray(requirements)) return [];
  return requirements
    .filter(r => getIn(r, 'key') === key && getIn(r, 'operator') === 'In')
    .flatMap(r => {
      const values = getIn(r, 'values');
      return Array.isArray(values) ? values.map(String) : [];
    });
}

/**
 * GPUs per node and GPU model of the catalog machines a NodePool's
 * requirements allow (gpu-common's rule for every reader: planner/
 * poolMachines.ts), of its node class's provider; a pool of another kind
 * (converted, with its one machine as instance type) by that name; else
 * the `instance-gpu-count` requirement (no model then).
 */
function machines(
  object: BuiltObject,
  catalog: GpuCatalog,
): {
  gpuCounts: number[];
  catalogModel?: string;
  types: InstanceType[];
  noGpus?: true;
} {
  const spec = getIn(object, 'spec', 'template', 'spec');
  const requirements = getIn(spec, 'requirements');
  const types =
    object.kind === 'NodePool'
      ? machinesRequirementsAllow(
          nodePoolRequirements(requirements),
          catalogMachinesOf(catalog, getIn(spec, 'nodeClassRef')),
        )
      : requirementValues(requirements, WELL_KNOWN_KEYS.instanceType)
          .map(name => findInstanceType(catalog, name))
          .filter(t => t !== undefined);
  if (types.length > 0) {
    const models = new Set(types.map(t => t.gpuModel));
    return {
      gpuCounts: [...new Set(types.map(t => t.gpusPerNode))],
      ...(models.size === 1 ? { catalogModel: [...models][0] } : {}),
      types,
    };
  }
  // A team's CPU pool: its machines are not in the GPU catalog.
  if (object.kind === 'NodePool' && excludesGpuMachines(requirements)) {
    return { types: [], gpuCounts: [], noGpus: true };
  }
  return {
    types: [],
    gpuCounts: requirementValues(requirements, INSTANCE_GPU_COUNT_LABEL)
      .map(v => parseCount(v) ?? 0)
      .filter(n => n > 0),
  };
}

/** The catalog machines a pool object may launch (`machines`; empty: none the catalog knows). */
export function poolMachinesOf(
  object: BuiltObject,
  catalog: GpuCatalog,
): InstanceType[] {
  return machines(object, catalog).types;
}

/**
 * The catalog's machines of the provider a NodePool's node class belongs to
 * (its `group`, or a v1beta1 reference's `apiVersion` group); all of them
 * when the class names no provider the catalog has.
 */
function catalogMachinesOf(catalog: GpuCatalog, nodeClassRef: unknown) {
  const group = getIn(nodeClassRef, 'group');
  const apiVersion = getIn(nodeClassRef, 'apiVersion');
  const provider = machineProviderOfNodeClass(
    typeof group === 'string' ? group : String(apiVersion ?? '').split('/')[0],
  );
  return catalog.instanceTypes.filter(
    t => provider === undefined || t.provider === provider,
  );
}

export interface BuiltPoolContext {
  /** Where findings point (none: at the root's kustomization). */
  source: Pick<SourceTree, 'docs' | 'patchFiles'>;
  catalog: GpuCatalog;
  /** The cluster's MIG strategy; undefined when no cluster was named (either is accepted). */
  migStrategy: MigStrategy | undefined;
  configMaps: Map<BuiltRoot, GpuConfigMaps>;
  names: GpuConfigMapNames;
  findings: Finding[];
  /**
   * Set when no cluster names the ConfigMaps the GPU Operator reads: a pool
   * selecting a config while none is built may get it from where the tree
   * cannot show (the operator's Helm values), so that is said here, not
   * reported.
   */
  cannotTell?: string[];
  /** What runs on the cluster's GPU nodes: the GPU Operator's default config serves unlabelled ones. */
  stack?: ClusterGpuStack;
  /**
   * The NodeOverlays of the whole cluster, when the caller knows them: every
   * pool gets them, as Karpenter applies every overlay of a cluster to
   * every NodePool. Without them, a root's overlays reach its own pools.
   */
  clusterOverlays?: readonly BuiltObject[];
}

/**
 * Every built NodePool (and Cluster API pool, read as one), and the config-selection rules on the way: each
 * `nvidia.com/device-plugin.config` / `nvidia.com/mig.config` label must
 * name a key of the built ConfigMap (the device plugin crash-loops on a
 * missing key; mig-manager fails the node), and each MIG layout must fit
 * the pool's GPU.
 */
export async function builtPools(
  roots: BuiltRoot[],
  context: BuiltPoolContext,
): Promise<BuiltPool[]> {
  // A scale cluster's root builds 2k pools, each read with its configs and
  // machines: the backend answers between slices.
  const pools: BuiltPool[] = [];
  for (const root of roots) {
    const own = await mapInTurns(rootPoolObjects(root, context), object =>
      builtPool(root, object, context),
    );
    pools.push(
      ...(context.clusterOverlays ? own : withOverlays(own, root.objects)),
    );
  }
  return context.clusterOverlays
    ? withOverlays(pools, context.clusterOverlays)
    : pools;
}

/**
 * The pool objects one root builds: what the pool readers read
 * (`hasPoolMarks`), and a team's MachineDeployment of catalog GPU
 * machines, a pool its workloads land on (`runsCatalogGpuMachine`), each
 * read as a NodePool.
 */
function rootPoolObjects(
  root: BuiltRoot,
  context: BuiltPoolContext,
): BuiltObject[] {
  const made = topologyMachineDeployments(root.objects) as BuiltObject[];
  return [...root.objects, ...made]
    .filter(
      object =>
        hasPoolMarks(object) ||
        (object.kind === MACHINE_DEPLOYMENT &&
          runsCatalogGpuMachine(object, root.objects, context.catalog)),
    )
    .map(object => poolObjectAsNodePool(object, root.objects));
}

/** A template's taints that name a key (the others taint nothing). */
function keyedTaints(taints: unknown): NodeTaint[] {
  return (Array.isArray(taints) ? taints : []).filter(
    t => typeof getIn(t, 'key') === 'string',
  ) as NodeTaint[];
}

/** A pool's `spec.limits` that parse as counts (the others limit nothing). */
function poolLimits(object: BuiltObject): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const [key, value] of Object.entries(
    stringRecord(getIn(object, 'spec', 'limits')),
  )) {
    const count = parseCount(value);
    if (count !== undefined) limits[key] = count;
  }
  return limits;
}

function builtPool(
  root: BuiltRoot,
  object: BuiltObject,
  context: BuiltPoolContext,
): BuiltPool {
  const { findings } = context;
  const name = object.metadata.name;
  const file = sourceFileOf(context.source, root, object);
  const report = (rule: string, message: string) =>
    findings.push({ file, object: `${object.kind}/${name}`, rule, message });
  const template = getIn(object, 'spec', 'template');
  const labels = stringRecord(getIn(template, 'metadata', 'labels'));
  const taints = getIn(template, 'spec', 'taints');
  const {
    gpuCounts,
    catalogModel,
    types: poolMachines,
    noGpus,
  } = machines(object, context.catalog);
  const ours = {
    ...stringRecord(getIn(object, 'metadata', 'annotations')),
    ...stringRecord(getIn(object, 'metadata', 'labels')),
    ...labels,
  };
  const modelId =
    findOurLabel(ours, POOL_LABEL_SUFFIXES.gpuModel) ?? catalogModel;
  const configs = gpuConfigMapsFor(root, context.configMaps);
  const reading: PoolReading = { object, name, labels, configs, report };
  const device = readDeviceConfig(reading, context);
  const mig = readMigEntries(reading, modelId, context);
  const usable = device.usable && mig.usable;
  const deviceConfig = device.content;
  const migEntries = mig.content;
  const notes = [...device.notes, ...mig.notes];

  return {
    root,
    object,
    name,
    file,
    taints: keyedTaints(taints),
    limits: poolLimits(object),
    gpuCounts,
    machines: poolMachines,
    ...(noGpus ? { advertised: [] } : {}),
    ...(usable && !noGpus
      ? {
          advertised: advertisedResources(
            deviceConfig,
            migEntries,
            context.migStrategy,
          ),
        }
      : {}),
    configNote: notes.join(', ') || 'whole GPUs',
    ...dra(draPoolUnits(ours, migEntries)),
    ...(modelId ? { gpuModel: modelId } : {}),
    ...productsOf(usable, modelId, deviceConfig, migEntries, context),
  };
}

/** A pool being read: its object, its labels, the GPU ConfigMaps its root builds, where findings go. */
interface PoolReading {
  object: BuiltObject;
  name: string;
  labels: Record<string, string>;
  configs: ReturnType<typeof gpuConfigMapsFor>;
  report: (rule: string, message: string) => void;
}

/** A config a pool's nodes read, whether it could be read and checked, and how the pool's note names it. */
interface PoolConfigRead {
  content: unknown;
  usable: boolean;
  notes: string[];
}

/**
 * The device-plugin config the pool's nodes read: the node class's own
 * (Bottlerocket), the key its label selects, or the GPU Operator's default.
 */
function readDeviceConfig(
  pool: PoolReading,
  context: BuiltPoolContext,
): PoolConfigRead {
  const { object, name, labels, configs, report } = pool;
  const { names } = context;
  let content: unknown;
  let usable = true;
  const notes: string[] = [];
  const deviceName = labels[WELL_KNOWN_KEYS.devicePluginConfig];
  // Bottlerocket's device plugin reads no label: its node class decides.
  const onNodeClass = nodeClassConfig(context.stack);
  if (onNodeClass) {
    content = onNodeClass.content;
    notes.push(`the node class's own config (${onNodeClass.setting})`);
  } else if (deviceName !== undefined) {
    const known = configs.devicePlugin?.configs;
    if (!known && context.cannotTell) {
      context.cannotTell.push(
        `${object.kind}/${name} selects device-plugin config ${deviceName}, but no device-plugin ConfigMap is built (looked for ${refList(names.devicePlugin)}): without --cluster naming the one the GPU Operator reads, that config could not be checked`,
      );
      usable = false;
    } else if (!known?.has(deviceName)) {
      report(
        'unknown-device-plugin-config',
        `label ${WELL_KNOWN_KEYS.devicePluginConfig}=${deviceName} names no key of the device-plugin ConfigMap ${configs.devicePlugin ? `${configs.devicePlugin.ref} (known: ${[...known!.keys()].sort().join(', ') || 'none'})` : `(none is built: looked for ${refList(names.devicePlugin)})`}; the device plugin would crash-loop on these nodes`,
      );
      usable = false;
    } else {
      content = known.get(deviceName);
      // A config that breaks the plugin's rules is reported on its file.
      if (configRuleFindings.devicePlugin(content).length > 0) {
        usable = false;
      }
      notes.push(`config ${deviceName}`);
    }
  } else if (labels[WELL_KNOWN_KEYS.migConfig] === undefined) {
    const fallback = operatorDefaultConfigOn(labels, context.stack);
    if (fallback) {
      content = fallback.content;
      notes.push(`the GPU Operator's default config ${fallback.key}`);
    }
  }

  return { content, usable, notes };
}

/** The mig-parted entry the pool's label selects, checked to fit its model's GPU. */
function readMigEntries(
  pool: PoolReading,
  modelId: string | undefined,
  context: BuiltPoolContext,
): PoolConfigRead {
  const { object, name, labels, configs, report } = pool;
  const { names } = context;
  let content: unknown;
  let usable = true;
  const notes: string[] = [];
  const migName = labels[WELL_KNOWN_KEYS.migConfig];
  if (migName !== undefined) {
    const known = configs.migParted?.migConfigs;
    if (!known && context.cannotTell) {
      context.cannotTell.push(
        `${object.kind}/${name} selects mig-parted config ${migName}, but no mig-parted ConfigMap is built (looked for ${refList(names.migParted)}): without --cluster naming the one the MIG manager reads, that config could not be checked`,
      );
      usable = false;
    } else if (!known?.has(migName)) {
      report(
        'unknown-mig-config',
        `label ${WELL_KNOWN_KEYS.migConfig}=${migName} names no entry of the mig-parted config ${configs.migParted ? `in ConfigMap ${configs.migParted.ref} (known: ${[...known!.keys()].sort().join(', ') || 'none'})` : `(no ConfigMap ${refList(names.migParted)} is built)`}`,
      );
      usable = false;
    } else {
      content = known.get(migName);
      if (configs.migParted!.broken) usable = false;
      else if (migInstancesPerGpu(content).size > 0) {
        const model = modelId ? findModel(context.catalog, modelId) : undefined;
        const problem = migFitProblem(model, modelId, migName, content);
        if (problem) {
          report(problem.rule, problem.message);
          usable = false;
        }
        notes.push(`mig-parted config ${migName}`);
      }
    }
  }

  return { content, usable, notes };
}

/**
 * The product label of a pool whose configs were read: its model's, as its
 * MIG layout and its device-plugin config's sharing name it.
 */
function productsOf(
  usable: boolean,
  gpuModel: string | undefined,
  deviceConfig: unknown,
  migEntries: unknown,
  context: BuiltPoolContext,
): { gpuProducts?: string[] } {
  const sharing = builtPoolSharing(deviceConfig, migEntries);
  if (!usable || !sharing) return {};
  const gpuProducts = poolGpuProducts(
    { gpuModel, ...sharing },
    context.migStrategy,
  );
  return gpuProducts ? { gpuProducts } : {};
}

/**
 * How a built pool's GPUs are shared, as its configs say: MIG when its
 * mig-parted entry partitions them, else its device-plugin config's slicing
 * (gpu-common `devicePluginSlicing`); undefined for a sharing config the
 * product does not read (several resources, both sharings).
 */
function builtPoolSharing(
  deviceConfig: unknown,
  migEntries: unknown,
): Omit<PoolGpuFacts, 'gpuModel'> | undefined {
  const profiles = [...migInstancesPerGpu(migEntries).keys()];
  if (profiles.length > 0) {
    return {
      sharingMode: 'mig',
      resourceName: WHOLE_GPU,
      ...(profiles.length === 1 ? { migProfile: profiles[0] } : {}),
    };
  }
  const slicing = devicePluginSlicing(deviceConfig);
  if (slicing) {
    return {
      sharingMode: slicing.mode,
      slicesPerGpu: slicing.replicas,
      resourceName: slicing.resourceName,
    };
  }
  return getIn(deviceConfig, 'sharing') === undefined
    ? { sharingMode: 'exclusive', resourceName: WHOLE_GPU }
    : undefined;
}

function refList(refs: { name: string; namespace?: string }[]): string {
  return refs
    .map(r => (r.namespace ? `${r.namespace}/${r.name}` : r.name))
    .join(' or ');
}

/** Why a MIG layout cannot be applied to the pool's GPU, if it cannot. */
function migFitProblem(
  model: GpuModel | undefined,
  modelId: string | undefined,
  configName: string,
  entries: unknown,
): { rule: string; message: string } | undefined {
  if (!model) {
    return {
      rule: 'unknown-gpu-model',
      message: `cannot check MIG layout "${configName}": GPU model ${modelId ?? '(none)'} is not in the catalog`,
    };
  }
  for (const entry of Array.isArray(entries) ? entries : []) {
    const devices = getIn(entry, 'mig-devices');
    if (getIn(entry, 'mig-enabled') !== true || !isPlainObject(devices)) {
      continue;
    }
    const counts = Object.fromEntries(
      Object.entries(devices).map(([k, v]) => [k, Number(v)]),
    );
    try {
      const result = fitMig(model, counts);
      if (!result.fits) {
        return {
          rule: 'mig-layout-does-not-fit',
          message: `mig-parted config "${configName}" does not fit one ${model.id}: ${result.reason}`,
        };
      }
    } catch (e) {
      return { rule: 'mig-layout-does-not-fit', message: (e as Error).message };
    }
  }
  return undefined;
}
