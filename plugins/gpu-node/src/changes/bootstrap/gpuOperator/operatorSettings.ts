/**
 * What a GPU Operator release the repository declares sets the values the
 * product depends on to, read from its value sources (`readValue`, the
 * chart's defaults where none sets one), against what the cluster profile
 * needs; the same values the bootstrap's own release sets
 * (`gpuOperatorValues.ts`), for these reasons:
 *
 * - `devicePlugin.config.name` names the ConfigMap of named device-plugin
 *   configs the profile's `devicePluginConfigMap` names; empty (the chart's
 *   default), the ClusterPolicy gets no config and the device plugin ignores
 *   the `nvidia.com/device-plugin.config` label of time-slicing and MPS pools
 *   (gpu-operator v26.7.0 `deployments/gpu-operator/templates/clusterpolicy.yaml`
 *   renders `devicePlugin.config` only with a name);
 * - `devicePlugin.config.default`: what nodes without that label get, which
 *   exclusive pools' nodes are (`wholeGpuDefaultKeys`);
 * - `migManager.config.name` names the profile's `migPartedConfigMap`;
 *   empty, the MIG manager reads the operator's own config, generated from
 *   the GPUs it finds (`values.yaml`, `migManager.config`; `controllers/object_controls.go`,
 *   `MigPartedDefaultConfigMapName`), without the entries MIG pools select;
 * - `devicePlugin.config.create` / `migManager.config.create` stay false:
 *   with `true` the chart makes a ConfigMap of that name itself from `data`
 *   (`templates/plugin_config.yaml`, `templates/mig_config.yaml`), a second
 *   object beside the product's or the team's;
 * - `mig.strategy` is the profile's `migStrategy`: the operator hands it to
 *   the device plugin as `MIG_STRATEGY` (`controllers/object_controls.go`),
 *   and with `mixed` each MIG instance is a resource of its profile,
 *   `nvidia.com/mig-<profile>`, with `single` a `nvidia.com/gpu`
 *   (k8s-device-plugin v0.20.0 `README.md`, `MIG_STRATEGY`);
 * - `daemonsets.tolerations` (every operand) and NFD's
 *   `node-feature-discovery.worker.tolerations` tolerate the profile's
 *   `gpuTaintKey` with any value (a pool's taint value is its name), or they
 *   never run on GPU nodes (`templates/clusterpolicy.yaml`);
 * - on a static cluster with a node inventory, nfd-master applies the
 *   NodeFeatureRules' pool taints only with `-enable-taints`, which NFD's
 *   chart passes for `master.enableTaints`, or its config file's
 *   `enableTaints` turns on (node-feature-discovery v0.19.0
 *   `deployment/helm/node-feature-discovery/templates/master.yaml`,
 *   `pkg/nfd-master/nfd-master.go`);
 * - the operator runs its operands in its own namespace (`cmd/gpu-operator/main.go`,
 *   `OPERATOR_NAMESPACE`; `controllers/object_controls.go`), and a pod mounts
 *   ConfigMaps of its own namespace only: both ConfigMaps must be there.
 *
 * Helm templates take a value as true unless it is false, empty or absent
 * (Go's `if`), so does this reader where the chart tests a value with `if`.
 */
import {
  tolerates,
  type ClusterGpuStack,
  type ClusterProfile,
  type PodToleration,
} from '@gpu-gitops/plugin-gpu-common';
import { isPlainObject } from '../../../repo/yamlObjects';
import { describeConfig } from '../configMapNotes';
import type { HelmRelease } from '../helmReleases/helmRelease';
import { helmTruth } from '../helmReleases/helmTruth';
import { readNfdTaints, type UntoldReading } from '../helmReleases/nfdTaints';
import {
  hiddenSources,
  layerToSetIn,
  readValue,
  setAdvice,
  type ValuesLayer,
} from '../helmReleases/valuesLayer';
import {
  devicePluginDefaultKey,
  wholeGpuDefaultKeys,
  type OperatorConfigMap,
  type OperatorConfigMaps,
} from '../operatorConfigMaps';
import { GPU_OPERATOR_CHART_DEFAULTS } from './gpuOperatorChart';

/** What one release sets, against what the product needs. */
export interface OperatorReleaseCheck {
  release: HelmRelease;
  /** The values already as the product needs them, as `key: value` (or the key alone for a list). */
  asNeeded: string[];
  /** One markdown sentence or two per value that differs or cannot be told. */
  findings: string[];
  /** The release reads another ConfigMap than the profile names (by name or namespace), per kind. */
  readsOther: { devicePlugin: boolean; migParted: boolean };
}

/** A value as the release sets it: from a source, the chart's default, or not to be told. */
type Value =
  | { known: true; value: unknown; setIn?: ValuesLayer }
  | { known: false; why: string; setIn?: ValuesLayer };

interface Context {
  release: HelmRelease;
  cluster: ClusterProfile;
  configMaps: OperatorConfigMaps;
  check: OperatorReleaseCheck;
}

const them = (hidden: readonly ValuesLayer[]) =>
  hidden.length > 1 ? 'them' : 'it';

/** A value as YAML shows it, inline: `mixed`, `""`, `true`. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}

function valueOf(release: HelmRelease, key: string): Value {
  const reading = readValue(release.layers, key.split('.'));
  if (reading.state === 'set') {
    return { known: true, value: reading.value, setIn: reading.setIn };
  }
  if (reading.state === 'chart-default') {
    return { known: true, value: GPU_OPERATOR_CHART_DEFAULTS[key] };
  }
  return { known: false, setIn: reading.setIn, why: whyUntold(reading) };
}

/** Why a value sources the bootstrap cannot read may set is not known. */
function whyUntold(reading: UntoldReading): string {
  const hidden = hiddenSources(reading.hidden);
  return reading.setIn
    ? `${reading.setIn.where} sets it to \`${shown(reading.value)}\`, but ${hidden} may override it, and the bootstrap cannot read ${them(reading.hidden)}`
    : `nothing the bootstrap can read sets it, and ${hidden} may; the bootstrap cannot read ${them(reading.hidden)}`;
}

/** Where the value comes from, as a clause: "in `x`" or "the chart's default". */
function source(value: Extract<Value, { known: true }>): string {
  return value.setIn ? `in ${value.setIn.where}` : "the chart's default";
}

/** `key: value` in the source to set it in. */
function advice(
  ctx: Context,
  value: Value,
  key: string,
  wanted: string,
): string {
  return setAdvice(layerToSetIn(ctx.release.layers, value.setIn), key, wanted);
}

function cannotTell(ctx: Context, key: string, wanted: string, why: string) {
  ctx.check.findings.push(
    `Whether \`${key}\` is \`${wanted}\` cannot be told: ${why}. Make sure it is.`,
  );
}

const profileKey = (cluster: ClusterProfile, field: string) =>
  `\`${field}\` of the cluster profile \`${cluster.name}\` (\`gpu.clusters.profiles.${cluster.name}.${field}\`)`;

const refLabel = ({ ref }: OperatorConfigMap) => `${ref.namespace}/${ref.name}`;

/** Where the team's ConfigMap of that name is, when one is in the cluster's folder. */
function handWrittenNamed(ctx: Context, name: string): string {
  const found = ctx.configMaps.handWrittenInClusterFolder.find(
    m => m.name === name,
  );
  return found ? ` (written by hand in \`${found.path}\`)` : '';
}

/** What the component that reads the ConfigMap is called, and the label it selects configs by. */
const READERS = {
  'device-plugin': {
    prefix: 'devicePlugin',
    reader: 'device plugin',
    profileField: 'devicePluginConfigMap',
    whenEmpty:
      'so the device plugin reads no ConfigMap of named configs and ignores the `nvidia.com/device-plugin.config` label that time-slicing and MPS pools select their config with',
  },
  'mig-parted': {
    prefix: 'migManager',
    reader: 'MIG manager',
    profileField: 'migPartedConfigMap',
    whenEmpty:
      'so the MIG manager reads the operator’s own config, generated from the GPUs it finds, without the entries MIG pools select with `nvidia.com/mig.config`',
  },
} as const;

/** `<prefix>.config.name`: the ConfigMap the component reads. Returns whether it is the profile's. */
function checkConfigName(ctx: Context, configMap: OperatorConfigMap): boolean {
  const { prefix, reader, profileField, whenEmpty } = READERS[configMap.kind];
  const key = `${prefix}.config.name`;
  const wanted = configMap.ref.name;
  const value = valueOf(ctx.release, key);
  const other =
    configMap.kind === 'device-plugin' ? 'devicePlugin' : 'migParted';
  if (!value.known) {
    cannotTell(ctx, key, wanted, value.why);
    return false;
  }
  if (value.value === wanted) {
    ctx.check.asNeeded.push(`\`${key}: ${wanted}\``);
    return true;
  }
  ctx.check.readsOther[other] = true;
  // The product generates its ConfigMap only where the operator reads it.
  const until = configMap.handWritten
    ? ''
    : ` Until the two agree, the bootstrap generates no ConfigMap \`${refLabel(configMap)}\`: the ${reader} would never read it. Run the bootstrap again once they do.`;
  if (!helmTruth(value.value)) {
    ctx.check.findings.push(
      `**To do**: set ${advice(ctx, value, key, wanted)}: it is \`${shown(value.value)}\` (${source(value)}), ${whenEmpty}; ${profileKey(ctx.cluster, profileField)} names \`${refLabel(configMap)}\`.${until}`,
    );
    return false;
  }
  const name = String(value.value);
  ctx.check.findings.push(
    `**The cluster profile disagrees**: the ${reader} reads ConfigMap \`${name}\` (\`${key}\` ${source(value)}), while ${profileKey(ctx.cluster, profileField)} names \`${refLabel(configMap)}\`. Set ${advice(ctx, value, key, wanted)}, or the profile's \`${profileField}.name\` to \`${name}\`${handWrittenNamed(ctx, name)}.${until}`,
  );
  return false;
}

/** `<prefix>.config.create` stays false: the chart makes no ConfigMap of its own. */
function checkConfigCreate(ctx: Context, configMap: OperatorConfigMap) {
  const { prefix } = READERS[configMap.kind];
  const key = `${prefix}.config.create`;
  const value = valueOf(ctx.release, key);
  if (!value.known) {
    cannotTell(ctx, key, 'false', value.why);
    return;
  }
  if (!helmTruth(value.value)) {
    ctx.check.asNeeded.push(`\`${key}: false\``);
    return;
  }
  const beside = configMap.handWritten
    ? `the one written by hand in \`${configMap.handWritten.path}\``
    : 'the one the product generates in the GPU folder';
  ctx.check.findings.push(
    `**To do**: set ${advice(ctx, value, key, 'false')}: with \`${shown(value.value)}\` (${source(value)}) the chart makes ConfigMap \`${configMap.ref.name}\` itself from \`${prefix}.config.data\`, a second object of that name beside ${beside}.`,
  );
}

/** `devicePlugin.config.default`: a key giving whole GPUs, or none. */
function checkDevicePluginDefault(ctx: Context) {
  const configMap = ctx.configMaps.devicePlugin;
  const key = 'devicePlugin.config.default';
  const suggested = shown(devicePluginDefaultKey(configMap));
  const value = valueOf(ctx.release, key);
  if (!value.known) {
    cannotTell(ctx, key, suggested, value.why);
    return;
  }
  const allowed = wholeGpuDefaultKeys(configMap);
  if (
    typeof value.value === 'string' &&
    (value.value === '' || allowed.includes(value.value))
  ) {
    ctx.check.asNeeded.push(`\`${key}: ${shown(value.value)}\``);
    return;
  }
  const name = shown(value.value);
  const configs = configMap.handWritten?.devicePluginConfigs ?? {};
  let why: string;
  if (typeof value.value === 'string' && value.value in configs) {
    why = `its key \`${name}\` shares GPUs (${describeConfig(configs[value.value])}), and exclusive pools, whose nodes carry no \`nvidia.com/device-plugin.config\` label, would get shared GPUs`;
  } else if (configMap.handWritten) {
    why = `ConfigMap \`${refLabel(configMap)}\` has no key \`${name}\`, and the device plugin's config manager fails on every GPU node without a \`nvidia.com/device-plugin.config\` label`;
  } else {
    why = `GPU nodes without a \`nvidia.com/device-plugin.config\` label (exclusive pools' nodes) must get whole GPUs, which the key \`default\` of the product's ConfigMap \`${refLabel(configMap)}\` gives (the bootstrap writes it), and \`${name}\` is not that key`;
  }
  ctx.check.findings.push(
    `**To do**: set ${advice(ctx, value, key, suggested)}: it is \`${name}\` (${source(value)}); ${why}.`,
  );
}

const STRATEGY_WORDS: Record<string, string> = {
  mixed:
    'each MIG instance a resource of its profile, `nvidia.com/mig-<profile>`',
  single: 'every MIG instance a `nvidia.com/gpu`',
};

function checkMigStrategy(ctx: Context) {
  const key = 'mig.strategy';
  const wanted = ctx.cluster.migStrategy;
  const value = valueOf(ctx.release, key);
  if (!value.known) {
    cannotTell(ctx, key, wanted, value.why);
    return;
  }
  if (value.value === wanted) {
    ctx.check.asNeeded.push(`\`${key}: ${wanted}\``);
    return;
  }
  const actual = shown(value.value);
  const words = STRATEGY_WORDS[actual];
  ctx.check.findings.push(
    `**The cluster profile disagrees**: ${profileKey(ctx.cluster, 'migStrategy')} is \`${wanted}\`, the strategy MIG requests for this cluster are planned for (${STRATEGY_WORDS[wanted]}), while this release runs \`${key}: ${actual}\` (${source(value)}${words ? `: ${words}` : ''}). Set ${advice(ctx, value, key, wanted)}${words ? `, or the profile's \`migStrategy\` to \`${actual}\`` : ''}.`,
  );
}

/**
 * True when `tolerations` let a pod onto a node with the taint `key`
 * (NoSchedule) whatever its value: a pool's taint value is the pool's name,
 * so only an `Exists` toleration covers every pool.
 */
export function toleratesGpuTaint(tolerations: unknown, key: string): boolean {
  return (
    Array.isArray(tolerations) &&
    tolerations.some(
      t =>
        isPlainObject(t) &&
        t.operator === 'Exists' &&
        tolerates(t as PodToleration, { key, effect: 'NoSchedule' }),
    )
  );
}

function checkTolerations(ctx: Context, key: string, who: string) {
  const taintKey = ctx.cluster.gpuTaintKey;
  const needed: PodToleration = {
    key: taintKey,
    operator: 'Exists',
    effect: 'NoSchedule',
  };
  const value = valueOf(ctx.release, key);
  if (!value.known) {
    cannotTell(ctx, key, `a list that tolerates \`${taintKey}\``, value.why);
    return;
  }
  if (toleratesGpuTaint(value.value, taintKey)) {
    ctx.check.asNeeded.push(
      `\`${key}\` (tolerates \`${taintKey}\`, ${source(value)})`,
    );
    return;
  }
  const list = [...(Array.isArray(value.value) ? value.value : []), needed];
  ctx.check.findings.push(
    `**To do**: set ${advice(ctx, value, key, JSON.stringify(list))}: ${who} do not tolerate the taint \`${taintKey}\` (NoSchedule, any value) every GPU pool carries (${profileKey(ctx.cluster, 'gpuTaintKey')}), so they never run on GPU nodes. A list replaces the chart's whole list.`,
  );
}

/** NFD: deployed by this release, running on GPU nodes, and (static inventory) applying taints. */
function checkNfd(ctx: Context) {
  const staticInventory =
    ctx.cluster.provider === 'static' && ctx.cluster.staticNodes !== undefined;
  const taints =
    ' and applies the NodeFeatureRules’ pool taints (nfd-master `-enable-taints`)';
  const enabled = valueOf(ctx.release, 'nfd.enabled');
  if (!enabled.known || !helmTruth(enabled.value)) {
    const what = enabled.known
      ? `This release deploys no NFD (\`nfd.enabled: ${shown(enabled.value)}\` ${source(enabled)})`
      : `Whether this release deploys NFD cannot be told: ${enabled.why}`;
    ctx.check.findings.push(
      `${what}. Make sure the NFD that labels GPU nodes for the operator tolerates \`${ctx.cluster.gpuTaintKey}\`${staticInventory ? taints : ''}.`,
    );
    return;
  }
  checkTolerations(
    ctx,
    'node-feature-discovery.worker.tolerations',
    'NFD’s workers, which label GPU nodes for the operator (`feature.node.kubernetes.io/pci-10de.present`),',
  );
  if (!staticInventory) return;
  const nfdTaints = readNfdTaints(ctx.release, 'node-feature-discovery');
  if (nfdTaints.applies) {
    ctx.check.asNeeded.push(`\`${nfdTaints.onBy}: true\``);
  } else if (nfdTaints.applies === undefined) {
    cannotTell(
      ctx,
      nfdTaints.flagKey,
      'true',
      nfdTaints.untold.map(whyUntold).join('; '),
    );
  } else {
    ctx.check.findings.push(
      `**To do**: set ${nfdTaints.toTurnOn}: ${profileKey(ctx.cluster, 'staticNodes')} makes the cluster's pools NodeFeatureRules, whose taints nfd-master applies only with \`-enable-taints\`, so the pools' nodes would never get their GPU taint.`,
    );
  }
}

/** Both ConfigMaps in the namespace the operator runs its operands in. */
function checkNamespace(ctx: Context, configMap: OperatorConfigMap) {
  const namespace = ctx.release.namespace;
  if (namespace === undefined || configMap.ref.namespace === namespace) return;
  const { profileField } = READERS[configMap.kind];
  ctx.check.readsOther[
    configMap.kind === 'device-plugin' ? 'devicePlugin' : 'migParted'
  ] = true;
  const move = configMap.handWritten
    ? `, and move the ConfigMap written by hand in \`${configMap.handWritten.path}\` there`
    : '';
  ctx.check.findings.push(
    `**The cluster profile disagrees**: this release runs the operator, and with it the operands that mount its ConfigMaps, in namespace \`${namespace}\`, and a pod mounts ConfigMaps of its own namespace only, while ${profileKey(ctx.cluster, profileField)} is in \`${configMap.ref.namespace}\`. Set the profile's \`${profileField}.namespace\` to \`${namespace}\`${move}.`,
  );
}

/**
 * `devicePlugin.enabled` is false where another device plugin serves the
 * GPU nodes (`stack.devicePlugin`): two device plugins on one node both
 * register `nvidia.com/gpu` with the kubelet, which keeps one endpoint per
 * resource name, the last registered (kubernetes `pkg/kubelet/cm/devicemanager`),
 * so which plugin's config a node runs changes with every restart.
 */
function checkDevicePluginEnabled(ctx: Context, stack: ClusterGpuStack) {
  const plugin = stack.devicePlugin;
  if (!plugin) return;
  const key = 'devicePlugin.enabled';
  const value = valueOf(ctx.release, key);
  if (!value.known) {
    cannotTell(ctx, key, 'false', value.why);
    return;
  }
  if (!helmTruth(value.value)) {
    ctx.check.asNeeded.push(`\`${key}: false\``);
    return;
  }
  ctx.check.findings.push(
    `**To do**: set ${advice(ctx, value, key, 'false')}: it is \`${shown(value.value)}\` (${source(value)}), so the operator runs a second device plugin beside ${plugin.setting} (\`${plugin.file}\`), which already serves the GPU nodes; both register \`nvidia.com/gpu\` with the kubelet, which keeps only the last one registered.`,
  );
}

/**
 * `gfd.enabled` / `nfd.enabled` are false where a standalone device-plugin
 * release deploys its own (`stack.chartFeatureDiscovery`): two GFDs label
 * each GPU node's `nvidia.com/gpu.product` and `.replicas` each from its own
 * plugin's config; NFD only when that release's NFD runs on the GPU nodes
 * (else this one is what labels them, `gpuStackNotes` says how to have one).
 */
function checkSecondDiscovery(ctx: Context, stack: ClusterGpuStack) {
  const discovery = stack.chartFeatureDiscovery;
  if (!discovery) return;
  const seconds = [
    ...(discovery.gfd
      ? [{ key: 'gfd.enabled', what: 'GPU feature discovery' }]
      : []),
    ...(discovery.nfd && discovery.nfdOnGpuNodes
      ? [{ key: 'nfd.enabled', what: 'NFD' }]
      : []),
  ];
  for (const { key, what } of seconds) {
    const value = valueOf(ctx.release, key);
    if (!value.known) {
      cannotTell(ctx, key, 'false', value.why);
    } else if (!helmTruth(value.value)) {
      ctx.check.asNeeded.push(`\`${key}: ${shown(value.value)}\``);
    } else {
      ctx.check.findings.push(
        `**To do**: set ${advice(ctx, value, key, 'false')}: it is \`${shown(value.value)}\` (${source(value)}), so the operator deploys a second ${what} beside the one ${discovery.setting} deploys, and both label the GPU nodes.`,
      );
    }
  }
}

/** What `release` sets, against what `cluster` needs and what else runs on the GPU nodes. */
export function checkOperatorRelease(
  release: HelmRelease,
  cluster: ClusterProfile,
  configMaps: OperatorConfigMaps,
  stack: ClusterGpuStack = {},
): OperatorReleaseCheck {
  const check: OperatorReleaseCheck = {
    release,
    asNeeded: [],
    findings: [],
    readsOther: { devicePlugin: false, migParted: false },
  };
  const ctx: Context = { release, cluster, configMaps, check };
  checkDevicePluginEnabled(ctx, stack);
  checkSecondDiscovery(ctx, stack);
  if (checkConfigName(ctx, configMaps.devicePlugin)) {
    checkDevicePluginDefault(ctx);
  }
  checkConfigCreate(ctx, configMaps.devicePlugin);
  checkConfigName(ctx, configMaps.migParted);
  checkConfigCreate(ctx, configMaps.migParted);
  checkNamespace(ctx, configMaps.devicePlugin);
  checkNamespace(ctx, configMaps.migParted);
  checkMigStrategy(ctx);
  checkTolerations(
    ctx,
    'daemonsets.tolerations',
    'the operands (device plugin, GPU feature discovery, DCGM exporter, MIG manager)',
  );
  checkNfd(ctx);
  return check;
}
