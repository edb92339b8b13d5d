/**
 * What a cluster can run, and why not: the one rule behind the request
 * form's disabled choices (served by the gpu backend's `GET /clusters`) and
 * the planner's refusals of the same requests, so the form never offers what
 * the planner would refuse, and says why in the same words.
 */
import { gpuModelChoices } from '../catalog/modelChoices';
import type { GpuCatalog, GpuModel, InstanceType } from '../catalog/types';
import {
  indexCatalog,
  instanceTypesOf,
  type CatalogIndex,
} from '../planner/catalogIndex';
import type { InputIssue } from '../errors';
import { migResourceName } from '../mig/names';
import { SHARED_GPU_RESOURCE } from '../planner/modeDecision';
import { clusterCatalog } from '../planner/clusterCatalog';
import { nodeClassConfig } from '../planner/nodeClassConfig';
import { poolProviderOf } from '../providers/poolProviders';
import { SHARING_MODES, type SharingMode } from '../request/types';
import { draUnavailable } from './draCapability';
import { gkeModeUnavailable } from './gkeCapability';
import { autoModeUnavailable } from './eksAutoMode';
import {
  chartNfdLeavesPoolTaintsOff,
  migManagerReads,
  type ClusterGpuStack,
} from './gpuStack';
import type { ClusterProfile, ClusterProvider } from './types';
import type { Unavailable } from './unavailable';

/**
 *  A sharing mode of a cluster; `unavailable` says why it cannot run there.
 *
 * @public
 */
export interface SharingModeCapability {
  mode: SharingMode;
  unavailable?: Unavailable;
}

/**
 *  A catalog model on a cluster.
 *
 * @public
 */
export interface ModelCapability {
  id: string;
  /** What a form shows, e.g. `NVIDIA L4 — 22.3 GiB, no MIG, from $0.80/GPU-hour`. */
  label: string;
  /** Why the cluster cannot launch this model at all. */
  unavailable?: Unavailable;
  /** Sharing modes this model cannot do, and why (e.g. MIG on a T4). */
  modes: Partial<Record<SharingMode, Unavailable>>;
}

/**
 *  `GET /clusters` of the gpu backend: one configured cluster profile and what it can run.
 *
 * @public
 */
export interface ClusterCapabilities {
  name: string;
  provider: ClusterProvider;
  region?: string;
  /** A form's name for the cluster, e.g. `dev — AWS (Karpenter), us-east-1`. */
  label: string;
  sharingModes: SharingModeCapability[];
  models: ModelCapability[];
}

/** The modes whose pools select a config per node by a label. */
const CONFIGURED_PER_POOL: readonly SharingMode[] = [
  'time-slicing',
  'mps',
  'mig',
];

/**
 * Why what the repository runs on `cluster`'s GPU nodes (`stack`) cannot
 * run `mode`; undefined when it can:
 *
 * - MIG pools select a mig-parted config per node (`nvidia.com/mig.config`),
 *   which only the GPU Operator's MIG manager applies: with
 *   `migManager.enabled: false` nothing partitions the GPUs, and with its
 *   `migManager.config.name` naming another ConfigMap than the profile's
 *   `migPartedConfigMap` it never finds the layout a pool selects; and a
 *   standalone device plugin whose own MIG strategy (`migStrategy`) is not
 *   the profile's advertises the instances under other names, or with
 *   `none` each MIG-enabled GPU whole;
 * - time-slicing and MPS pools select a named device-plugin config per node
 *   (`nvidia.com/device-plugin.config`), which only a device plugin with the
 *   config manager reading the profile's ConfigMap switches on: the
 *   standalone chart does with `config.name` naming that ConfigMap
 *   (k8s-device-plugin v0.20.0 `deployments/helm/nvidia-device-plugin`,
 *   `config.name`), its static DaemonSet never; Bottlerocket's built-in
 *   plugin takes one sharing setting for every node of its node class from
 *   the user data (`[settings.kubelet-device-plugins.nvidia]`), and no
 *   label; MIG there is partitioned by the same settings, not by a MIG
 *   manager. Time-slicing runs there when the user data time-slices: on
 *   its slices (`planner/nodeClassConfig.ts`).
 */
function stackUnavailable(
  cluster: ClusterProfile,
  mode: SharingMode,
  stack: ClusterGpuStack | undefined,
): Unavailable | undefined {
  return (
    migManagerUnavailable(cluster, mode, stack) ??
    migStrategyUnavailable(cluster, mode, stack) ??
    devicePluginUnavailable(cluster, mode, stack)
  );
}

/** MIG needs the GPU Operator's MIG manager, reading the ConfigMap the product writes layouts into. */
function migManagerUnavailable(
  cluster: ClusterProfile,
  mode: SharingMode,
  stack: ClusterGpuStack | undefined,
): Unavailable | undefined {
  if (mode === 'mig' && stack?.migManagerOff) {
    const { setting } = stack.migManagerOff;
    return {
      path: 'spec.gpu.sharing',
      rule: 'mig-manager-disabled',
      reason: `cluster ${cluster.name} cannot run MIG: its GPU Operator runs no MIG manager (${setting}), so nothing partitions the GPUs of a MIG pool's nodes (the nvidia.com/mig.config label would never be applied); set migManager.enabled: true there, or ask for another sharing mode`,
    };
  }
  const elsewhere = stack?.migManagerConfigElsewhere;
  if (mode === 'mig' && elsewhere) {
    return {
      path: 'spec.gpu.sharing',
      rule: 'mig-manager-reads-other-config',
      reason: `cluster ${cluster.name} cannot run MIG pools as planned: its GPU Operator's MIG manager reads ${migManagerReads(elsewhere)} (${elsewhere.setting}), not ConfigMap ${cluster.migPartedConfigMap.namespace}/${cluster.migPartedConfigMap.name} the product writes MIG layouts into (the cluster profile's migPartedConfigMap), so the nvidia.com/mig.config label of a MIG pool's nodes names a layout it never finds; set ${elsewhere.advice}, or ask for another sharing mode`,
    };
  }
  return undefined;
}

/** MIG needs a standalone plugin that advertises MIG instances as the profile's strategy names them. */
function migStrategyUnavailable(
  cluster: ClusterProfile,
  mode: SharingMode,
  stack: ClusterGpuStack | undefined,
): Unavailable | undefined {
  const plugin = stack?.devicePlugin;
  if (
    plugin?.kind === 'standalone' &&
    mode === 'mig' &&
    plugin.migStrategy !== undefined &&
    plugin.migStrategy !== cluster.migStrategy
  ) {
    // With "none" the plugin advertises a MIG-enabled GPU whole and no MIG
    // device (k8s-device-plugin v0.18.0 internal/rm/device_map.go
    // buildDeviceMapFromConfigResources); with the other strategy, its MIG
    // instances under other resource names than the plan's.
    return {
      path: 'spec.gpu.sharing',
      rule: 'device-plugin-mig-strategy',
      reason: `cluster ${cluster.name} cannot run MIG pools: its GPU nodes run the standalone NVIDIA device plugin (${plugin.setting}), whose MIG strategy is "${plugin.migStrategy}", not the cluster profile's "${cluster.migStrategy}": ${plugin.migStrategy === 'none' ? "it advertises each MIG-enabled GPU whole as nvidia.com/gpu and none of its MIG instances, so a MIG pool's pods would get a GPU they cannot use" : 'it advertises the MIG instances under other resource names than the pods ask for'}; set its Helm value migStrategy to ${cluster.migStrategy}, or ask for another sharing mode`,
    };
  }
  return undefined;
}

/**
 * The caveat of a MIG plan where the GPU nodes run a standalone NVIDIA
 * device plugin whose MIG strategy the repository does not tell: a static
 * DaemonSet given a config file, or a team's own chart. It is not refused
 * (it may run the profile's strategy), but the reviewer must check it: with
 * `none` the plugin advertises each MIG-enabled GPU whole and no MIG
 * instance (k8s-device-plugin v0.18.0 `internal/rm/device_map.go`), with
 * the other strategy the instances under other resource names, and the
 * pods stay Pending either way. Undefined where it is known or not needed.
 */
export function migStrategyUntold(
  cluster: ClusterProfile,
  stack: ClusterGpuStack | undefined,
  resourceName: string,
): string | undefined {
  const plugin = stack?.devicePlugin;
  if (
    plugin?.kind !== 'standalone' ||
    plugin.readsNamedConfigs ||
    plugin.migStrategy !== undefined
  ) {
    return undefined;
  }
  return `cluster ${cluster.name}'s GPU nodes run the standalone NVIDIA device plugin (${plugin.setting}), whose MIG strategy the repository does not tell: check that it runs migStrategy "${cluster.migStrategy}" (the cluster profile's) before merging. This pool's pods ask for ${resourceName}, which the plugin advertises only under that strategy (under "none" it advertises each MIG-enabled GPU whole and no MIG instance); else they stay Pending`;
}

/**
 * The caveat of a plan on a static cluster whose pools' taints the NFD that
 * labels its GPU nodes does not apply (`chartNfdLeavesPoolTaintsOff`): the
 * pool's pods still land on its nodes (they are labelled, and tolerate the
 * taint), but nothing keeps other pods off them.
 *
 * @public
 */
export function poolTaintNotApplied(
  cluster: ClusterProfile,
  stack: ClusterGpuStack | undefined,
): string | undefined {
  const discovery = chartNfdLeavesPoolTaintsOff(cluster, stack);
  if (!discovery) return undefined;
  const runs =
    discovery.nfdAppliesTaints === false
      ? 'runs its nfd-master without `-enable-taints`'
      : 'may run its nfd-master without `-enable-taints` (its values cannot all be read)';
  return `cluster ${cluster.name}'s pools are NodeFeatureRules whose taint only an nfd-master run with \`-enable-taints\` puts on the nodes, and the NFD that labels its GPU nodes (${discovery.setting}) ${runs}: the nodes of its pools would not carry their taint ${cluster.gpuTaintKey} (NoSchedule), so pods that ask for no GPU could be scheduled on them; set ${discovery.turnOnNfdTaints}`;
}

/**
 * What a plan on `cluster` must tell its reviewer about what the GPU nodes
 * run (`stack`) and the planner cannot rule on: a MIG strategy the
 * repository does not tell, pool taints nothing applies.
 */
export function stackCaveats(
  cluster: ClusterProfile,
  decision: { sharing: { mode: SharingMode }; resourceName: string },
  stack: ClusterGpuStack | undefined,
): string[] {
  const untold =
    decision.sharing.mode === 'mig'
      ? migStrategyUntold(cluster, stack, decision.resourceName)
      : undefined;
  const untainted = poolTaintNotApplied(cluster, stack);
  return [untold, untainted].filter((c): c is string => c !== undefined);
}

/** What the device plugin the GPU nodes run cannot serve: per-pool configs, whole GPUs where it shares. */
function devicePluginUnavailable(
  cluster: ClusterProfile,
  mode: SharingMode,
  stack: ClusterGpuStack | undefined,
): Unavailable | undefined {
  const plugin = stack?.devicePlugin;
  if (
    plugin?.kind === 'bottlerocket' &&
    CONFIGURED_PER_POOL.includes(mode) &&
    // Time-slicing plans on the node class's own slices (nodeClassConfig.ts).
    !(mode === 'time-slicing' && nodeClassConfig(stack))
  ) {
    return {
      path: 'spec.gpu.sharing',
      rule: 'device-plugin-bottlerocket',
      reason: `cluster ${cluster.name} cannot run ${mode} pools: its GPU nodes run Bottlerocket's built-in NVIDIA device plugin (${plugin.setting}), which takes one sharing setting for every node of the node class from its user data ([settings.kubelet-device-plugins.nvidia]) and ignores the per-pool ${mode === 'mig' ? 'nvidia.com/mig.config' : 'nvidia.com/device-plugin.config'} label the product sets; ask for exclusive GPUs, or set the sharing in that node class's user data for all its nodes`,
    };
  }
  if (
    plugin?.kind === 'bottlerocket' &&
    plugin.sharesByDefault &&
    mode === 'exclusive'
  ) {
    // The sharing is the node class's, so every pool launched with it,
    // a new exclusive one too, gives a pod asking for one GPU a slice.
    return {
      path: 'spec.gpu.sharing',
      rule: 'device-plugin-shares-by-default',
      reason: `cluster ${cluster.name} cannot give whole GPUs: its GPU nodes run Bottlerocket's built-in NVIDIA device plugin (${plugin.setting}), which shares every GPU (${plugin.sharesByDefault}), so a pod asking for one GPU gets a share of one; set device-sharing-strategy = "none" in that node class's user data, or give the cluster profile's nodeClass a node class without sharing, to run exclusive pools there`,
    };
  }
  if (
    plugin?.kind === 'standalone' &&
    plugin.sharesByDefault &&
    mode === 'exclusive'
  ) {
    // A pod asking for nvidia.com/gpu: 1 there gets a slice, not a GPU: the
    // plan would promise a whole GPU and memory isolation the node never gives.
    return {
      path: 'spec.gpu.sharing',
      rule: 'device-plugin-shares-by-default',
      reason: `cluster ${cluster.name} cannot give whole GPUs: its GPU nodes run the standalone NVIDIA device plugin (${plugin.setting}), which shares every GPU (${plugin.sharesByDefault}), so a pod asking for one GPU gets a share of one; give the plugin a default config without sharing (its Helm values config.default or config.map) to run exclusive pools there`,
    };
  }
  const operatorDefault = stack?.operatorSharesByDefault;
  if (operatorDefault && !plugin && mode === 'exclusive') {
    // The product's exclusive pools set no nvidia.com/device-plugin.config
    // label, so their nodes get the operator's default: a slice per pod.
    return {
      path: 'spec.gpu.sharing',
      rule: 'device-plugin-shares-by-default',
      reason: `cluster ${cluster.name} cannot give whole GPUs: its GPU Operator's default device-plugin config shares every GPU (${operatorDefault.sharing}; ${operatorDefault.setting}), and an exclusive pool's nodes carry no nvidia.com/device-plugin.config label, so they get that default and a pod asking for one GPU gets a share of one; in \`${operatorDefault.file}\` point devicePlugin.config.default at a config without sharing, or label exclusive pools' nodes with nvidia.com/device-plugin.config naming a whole-GPU config key (the product does not set that label on exclusive pools), to run exclusive pools there`,
    };
  }
  if (
    plugin?.kind === 'standalone' &&
    !plugin.readsNamedConfigs &&
    (mode === 'time-slicing' || mode === 'mps')
  ) {
    return {
      path: 'spec.gpu.sharing',
      rule: 'device-plugin-standalone',
      reason: `cluster ${cluster.name} cannot run ${mode} pools: its GPU nodes run the standalone NVIDIA device plugin (${plugin.setting}), which does not read the ConfigMap ${cluster.devicePluginConfigMap.namespace}/${cluster.devicePluginConfigMap.name} of named configs (the cluster profile's devicePluginConfigMap) that the per-pool nvidia.com/device-plugin.config label selects from; set its Helm value config.name to ${cluster.devicePluginConfigMap.name} (release in namespace ${cluster.devicePluginConfigMap.namespace}), or ask for exclusive GPUs`,
    };
  }
  return undefined;
}

/**
 * Why `cluster` can never run `mode`; undefined when it can. `stack` is
 * what the repository runs on its GPU nodes (`RepoState.gpuStack`), when
 * known.
 *
 * @public
 */
export function sharingModeUnavailable(
  cluster: ClusterProfile,
  mode: SharingMode,
  stack?: ClusterGpuStack,
): Unavailable | undefined {
  const onGke = gkeModeUnavailable(cluster, mode);
  if (onGke) return onGke;
  const onAutoMode = autoModeUnavailable(cluster, mode);
  if (onAutoMode) return onAutoMode;
  const onStack = stackUnavailable(cluster, mode, stack);
  if (onStack) return onStack;
  const dra = mode === 'dra' ? draUnavailable(cluster) : undefined;
  if (dra) return dra;
  if (mode === 'mps' && cluster.migStrategy === 'mixed') {
    // The GPU Operator passes ClusterPolicy mig.strategy to the plugin as
    // MIG_STRATEGY, which overrides flags.migStrategy in every named config,
    // (gpu-operator v26.7.0 `controllers/object_controls.go`), and the plugin
    // refuses to start MPS with "mixed" (`validateFlags`, k8s-device-plugin
    // v0.20.0 `cmd/nvidia-device-plugin/main.go`):
    // a config we wrote would crash-loop the plugin on every node of the pool.
    return {
      path: 'spec.gpu.sharing',
      rule: 'mps-mig-strategy',
      reason: `cluster ${cluster.name} cannot run MPS: its device plugin runs the MIG strategy "mixed" (ClusterPolicy mig.strategy overrides every named config), and the plugin rejects MPS with "mixed"; use time-slicing or exclusive there, or a cluster whose migStrategy is "single"`,
    };
  }
  const renamed = renamedResourceOf(cluster, mode, stack);
  if (renamed && poolProviderOf(cluster).karpenter && !cluster.nodeOverlay) {
    // Karpenter learns only physical GPUs from the cloud; shared and mixed
    // MIG resources exist for it only through NodeOverlays, which it
    // applies only with the NodeOverlay feature gate on (alpha, off by
    // default: karpenter.sh/v1.15/concepts/nodeoverlays/). Without them it
    // never launches a node for these pods (kubernetes-sigs/karpenter#729).
    return {
      path: 'spec.gpu.sharing',
      rule: 'nodeoverlay-gate-off',
      reason: `cluster ${cluster.name} runs Karpenter without its NodeOverlay feature gate (profile nodeOverlay: false): Karpenter never launches a node for ${renamed} and the pods would stay Pending; turn the gate on (--feature-gates NodeOverlay=true, Helm settings.featureGates.nodeOverlay) and set nodeOverlay: true, or ask for exclusive GPUs`,
    };
  }
  if (cluster.clusterApi?.autoscaler && (renamed || mode === 'dra')) {
    // The Cluster API autoscaler learns a node it has not seen from the
    // MachineDeployment's capacity annotations, which declare only
    // `gpu-type` and `gpu-count` (kubernetes/autoscaler
    // cluster-autoscaler/cloudprovider/clusterapi/README.md, "Scale from zero
    // support"): a renamed resource, or a DRA claim on a version the
    // product has not checked, cannot be declared, so a pool at zero nodes
    // never scales up for these pods.
    const asked = renamed ?? 'a DRA resource claim';
    return {
      path: 'spec.gpu.sharing',
      rule: 'cluster-autoscaler-renamed-resource',
      reason: `cluster ${cluster.name} scales its Cluster API pools with the cluster autoscaler (profile clusterApi.autoscaler: true), which can only be told that a node at zero replicas will have whole nvidia.com/gpu devices: it never scales up a pool for ${asked} and the pods would stay Pending; ask for exclusive GPUs${cluster.migStrategy === 'single' ? ' or MIG' : ''}, or turn the autoscaler off for this cluster (replicas are then the planned node count)`,
    };
  }
  return undefined;
}

/**
 * The resource a mode's pods ask for when it is not the physical
 * `nvidia.com/gpu` (time slices and MPS clients are renamed to
 * `nvidia.com/gpu.shared`; MIG instances under the mixed strategy are
 * `nvidia.com/mig-<profile>`); undefined when pods ask for whole GPUs.
 */
function renamedResourceOf(
  cluster: ClusterProfile,
  mode: SharingMode,
  stack: ClusterGpuStack | undefined,
): string | undefined {
  // Bottlerocket's slices keep nvidia.com/gpu unless its user data renames them.
  const fixed = mode === 'time-slicing' ? nodeClassConfig(stack) : undefined;
  if (fixed) {
    const { resourceName } = fixed.slicing;
    return resourceName === SHARED_GPU_RESOURCE ? resourceName : undefined;
  }
  switch (mode) {
    case 'time-slicing':
    case 'mps':
      return SHARED_GPU_RESOURCE;
    case 'mig':
      return cluster.migStrategy === 'mixed'
        ? migResourceName('<profile>', 'mixed')
        : undefined;
    default:
      return undefined;
  }
}

/** Why `cluster` cannot launch nodes with `model`; undefined when it can. */
export function modelUnavailable(
  cluster: ClusterProfile,
  index: CatalogIndex,
  model: Pick<GpuModel, 'id'>,
): Unavailable | undefined {
  const provider = poolProviderOf(cluster).machines;
  if (instanceTypesOf(index, provider, model.id).length === 0) {
    return {
      path: 'spec.gpu.model',
      rule: 'no-instance-type',
      reason: `cluster ${cluster.name} cannot launch ${model.id} GPUs: the catalog has no ${provider} machine with them`,
    };
  }
  return undefined;
}

/**
 * Whether a machine's GPUs can run `mode`. A vSphere machine with a vGPU
 * profile gets a vGPU, not the GPU: MIG mode belongs to the physical GPU and
 * is set on the ESXi host (where MIG-backed vGPU profiles are carved), so
 * the GPU Operator's mig-manager in the guest cannot partition it. MIG pools
 * need machines with whole GPUs (PCI passthrough on vSphere).
 */
function machineRunsMode(type: InstanceType, mode: SharingMode): boolean {
  return mode !== 'mig' || type.vSphere?.vgpuProfile === undefined;
}

/** The machines of `model` that `cluster` can launch for a pool of `mode`, in catalog order. */
export function machinesForMode(
  cluster: ClusterProfile,
  index: CatalogIndex,
  modelId: string,
  mode: SharingMode,
): InstanceType[] {
  return instanceTypesOf(
    index,
    poolProviderOf(cluster).machines,
    modelId,
  ).filter(type => machineRunsMode(type, mode));
}

/**
 * Why none of the machines of `model` that `cluster` can launch runs `mode`
 * (MIG where they are all vGPUs); undefined when one can, or when there are
 * none (`modelUnavailable` says so).
 */
export function modeUnavailableOnMachines(
  cluster: ClusterProfile,
  index: CatalogIndex,
  model: Pick<GpuModel, 'id'>,
  mode: SharingMode,
): Unavailable | undefined {
  const machines = instanceTypesOf(
    index,
    poolProviderOf(cluster).machines,
    model.id,
  );
  if (
    machines.length === 0 ||
    machinesForMode(cluster, index, model.id, mode).length > 0
  ) {
    return undefined;
  }
  return {
    path: 'spec.gpu.sharing',
    rule: 'mig-needs-whole-gpu',
    reason: `cluster ${cluster.name} gets ${model.id} only as vGPUs (${machines.map(m => `${m.name}: ${m.vSphere?.vgpuProfile}`).join(', ')}): MIG partitions a whole GPU, which a VM gets only by PCI passthrough; add a vsphere machine with pciDeviceId to the catalog, or ask for another sharing mode`,
  };
}

/** Why `model` cannot do `mode` on any cluster; undefined when it can. */
export function modeUnavailableForModel(
  model: GpuModel,
  mode: SharingMode,
): Unavailable | undefined {
  if (mode === 'mig' && !model.mig) {
    return {
      path: 'spec.gpu.model',
      rule: 'mig-unsupported',
      reason: `${model.id} does not support MIG; pick a MIG-capable model (A100, A30, H100, H200, B200...) or another sharing mode`,
    };
  }
  return undefined;
}

/** An unavailability as the request issue a planner refusal carries. */
export function unavailableIssue(unavailable: Unavailable): InputIssue {
  return {
    path: unavailable.path,
    rule: unavailable.rule,
    message: unavailable.reason,
  };
}

/**
 *  What `cluster` can run with `catalog`: every sharing mode and model,
 *  available or why not; `stack` is what its repository runs on the GPU
 *  nodes (`RepoState.gpuStack`), when known.
 *
 * @public
 */
export function clusterCapabilities(
  cluster: ClusterProfile,
  catalog: GpuCatalog,
  stack?: ClusterGpuStack,
): ClusterCapabilities {
  const provider = poolProviderOf(cluster);
  // Prices in the labels are of the machines this cluster can get.
  const labels = new Map(
    gpuModelChoices(catalog, provider.machines).map(c => [c.id, c.label]),
  );
  // A static cluster with an inventory offers the models its nodes have;
  // an EKS Auto Mode cluster, those of the EC2 types Auto Mode launches.
  const index = indexCatalog(clusterCatalog(catalog, cluster));
  const capabilities: ClusterCapabilities = {
    name: cluster.name,
    provider: cluster.provider,
    label: [
      cluster.name,
      [provider.displayName, cluster.region].filter(Boolean).join(', '),
    ].join(' — '),
    sharingModes: SHARING_MODES.map(mode => {
      const unavailable = sharingModeUnavailable(cluster, mode, stack);
      return unavailable ? { mode, unavailable } : { mode };
    }),
    models: catalog.models.map(model => {
      const modes: ModelCapability['modes'] = {};
      for (const mode of SHARING_MODES) {
        const unavailable =
          modeUnavailableForModel(model, mode) ??
          modeUnavailableOnMachines(cluster, index, model, mode);
        if (unavailable) modes[mode] = unavailable;
      }
      const unavailable = modelUnavailable(cluster, index, model);
      return {
        id: model.id,
        label: labels.get(model.id) ?? model.id,
        ...(unavailable ? { unavailable } : {}),
        modes,
      };
    }),
  };
  if (cluster.region) capabilities.region = cluster.region;
  return capabilities;
}
