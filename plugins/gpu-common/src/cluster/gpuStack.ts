/**
 * What the repository runs on a cluster's GPU nodes beyond the cluster
 * profile: a device plugin that is not the GPU Operator's, and a GPU
 * Operator without its MIG manager. gpu-node reads it from the repository
 * (`readRepoState`, the bootstrap); `capabilities.ts` says what it rules out,
 * `scheduling/devicePluginService.ts` which plugin serves each pool.
 */
import type { PodScheduling } from '../scheduling/podScheduling';
import type { ClusterProfile } from './types';

/**
 * Where a value the rules depend on is set, in the words a reviewer looks for.
 *
 * @public
 */
export interface StackSetting {
  /** Repository path of the file that sets it (or declares the object). */
  file: string;
  /**
   * What sets it and where, e.g. "`migManager.enabled: false` in
   * `spec.values` of HelmRelease `gpu-operator/gpu-operator` in `infra/gpu-operator.yaml`".
   */
  setting: string;
}

/**
 * A device plugin serving the GPU nodes that is not the GPU Operator's.
 *
 * @public
 */
export interface OtherDevicePlugin extends StackSetting {
  /**
   * `standalone`: NVIDIA's `nvidia-device-plugin` (its Helm chart or its
   * static DaemonSet); `bottlerocket`: the one built into Bottlerocket's
   * NVIDIA variants, configured by `[settings.kubelet-device-plugins.nvidia]`.
   */
  kind: 'standalone' | 'bottlerocket';
  /**
   * True when it reads the profile's ConfigMap of named configs and switches
   * per node on `nvidia.com/device-plugin.config` (the chart's `config.name`).
   */
  readsNamedConfigs: boolean;
  /**
   * Set when its own default config shares every GPU of the nodes it serves
   * (the chart's `config.map` default, Bottlerocket's user data): how, and
   * where that is set, e.g.
   * "time-slicing, 10 per GPU, as `nvidia.com/gpu`: its default config …".
   */
  sharesByDefault?: string;
  /**
   * Bottlerocket's: the one device-plugin config (v1) its user data amounts
   * to, which every node of the node class runs whatever its pool
   * (`planner/nodeClassConfig.ts` plans time-slicing on it); absent: whole GPUs.
   */
  config?: unknown;
  /**
   * The standalone plugin's: the MIG strategy it runs on every node it serves
   * whatever the named configs say — the chart's `migStrategy` value or its
   * DaemonSet's `MIG_STRATEGY` (which override a config's `flags.migStrategy`),
   * else, when it reads no named config, its own default config's, else
   * `none`, the plugin's default (k8s-device-plugin v0.18.0
   * `cmd/nvidia-device-plugin/main.go`, flag `mig-strategy`); absent: the named
   * configs decide, or it cannot be told.
   */
  migStrategy?: string;
}

/**
 * A device plugin the repository deploys, with the nodes it serves.
 *
 * @public
 */
export interface DeployedDevicePlugin extends StackSetting {
  /** `gpu-operator`: the GPU Operator's own (its `devicePlugin` not turned off). */
  kind: 'gpu-operator' | OtherDevicePlugin['kind'];
  /** It reads the profile's ConfigMap of named configs, switching per node on `nvidia.com/device-plugin.config`. */
  readsNamedConfigs: boolean;
  /**
   * Where its pods run (a DaemonSet's node selector, required node affinity
   * and tolerations), judged on running nodes; absent: every GPU node (the
   * GPU Operator labels each GPU node for its own).
   */
  placement?: PodScheduling;
  /** Bottlerocket's: the EC2NodeClass whose nodes run it. */
  nodeClass?: string;
  /** Bottlerocket's: why that class runs Bottlerocket, as written (e.g. "`amiFamily: Bottlerocket`"). */
  nodeClassSetting?: string;
  /** The standalone chart's or Bottlerocket's: its own default config shares every GPU, how and where (as `OtherDevicePlugin.sharesByDefault`). */
  sharesByDefault?: string;
  /**
   * The one device-plugin config (v1) it gives every node it serves when it
   * reads no named config; absent: whole GPUs.
   */
  config?: unknown;
  /** The standalone plugin's own MIG strategy, as `OtherDevicePlugin.migStrategy`. */
  migStrategy?: string;
}

/**
 * NVIDIA's DRA driver for GPUs, as the repository deploys it (its Helm
 * chart, or its kubelet plugin DaemonSet).
 *
 * @public
 */
export interface DeployedDraDriver extends StackSetting {
  /**
   * It publishes the GPUs of the nodes it runs on as devices of DeviceClass
   * `gpu.nvidia.com` (the chart's `resources.gpus.enabled`, rendered only
   * with `gpuResourcesEnabledOverride: true`).
   */
  servesGpus: boolean;
  /** Where its kubelet plugin's pods run; absent: every GPU node. */
  placement?: PodScheduling;
}

/**
 * The GPU Operator's default device-plugin config (`devicePlugin.config.default`,
 * a key of the `devicePlugin.config.name` ConfigMap) shares every GPU: every
 * node without a `nvidia.com/device-plugin.config` label gets it.
 *
 * @public
 */
export interface OperatorDefaultSharing extends StackSetting {
  /** How it shares, e.g. "time-slicing, 4 per GPU, as `nvidia.com/gpu`". */
  sharing: string;
  /**
   * The default config itself, when the repository holds it: its key (the
   * value of `devicePlugin.config.default`) and its content, which every
   * node without a `nvidia.com/device-plugin.config` label runs.
   */
  config?: { key: string; content: unknown };
}

/**
 * The GPU Operator's MIG manager reads its mig-parted config from another
 * ConfigMap than the one the product writes MIG pools' layouts into.
 *
 * @public
 */
export interface MigManagerConfigElsewhere extends StackSetting {
  /** The ConfigMap it reads; empty: the operator's own, generated from the GPUs it finds. */
  configMap: string;
  /** What to set, and where, for it to read the product's (e.g. "`migManager.config.name: custom-mig-parted-config` in …"). */
  advice: string;
}

/**
 * GPU feature discovery (GFD) and Node Feature Discovery (NFD) that a
 * standalone `nvidia-device-plugin` release deploys beside its plugin: its
 * `gfd.enabled` renders GFD's DaemonSet, and its NFD subchart (alias `nfd`)
 * is installed under the condition `nfd.enabled,gfd.enabled`
 * (k8s-device-plugin v0.18.0 `deployments/helm/nvidia-device-plugin/Chart.yaml`,
 * `templates/daemonset-gfd.yml`). The GPU Operator's own would be a second.
 *
 * @public
 */
export interface ChartFeatureDiscovery extends StackSetting {
  /** It deploys GPU feature discovery, which labels each GPU node as its own plugin's config shares it. */
  gfd: boolean;
  /** It deploys Node Feature Discovery. */
  nfd: boolean;
  /**
   * Its NFD's workers tolerate the profile's GPU taint with any value (the
   * chart's `nfd.worker.tolerations`), so they run on, and label, the GPU nodes.
   */
  nfdOnGpuNodes: boolean;
  /**
   * Its nfd-master applies the NodeFeatureRules' taints: `-enable-taints`,
   * which the NFD chart passes for `master.enableTaints`, or `enableTaints`
   * in its config (the chart's `nfd.master.enableTaints`,
   * `nfd.master.config.enableTaints`; node-feature-discovery v0.19.0, the
   * subchart k8s-device-plugin v0.20.0 pins, `templates/master.yaml`). False
   * when neither is set, as the chart's defaults; absent when a source that
   * may set them cannot be read.
   */
  nfdAppliesTaints?: boolean;
  /**
   * What to set, and where, to have its nfd-master apply them, in the form
   * of the release's values source: a values key (`nfd.master.enableTaints: true`
   * in a values file or field), or an Argo CD parameter.
   */
  turnOnNfdTaints: string;
}

/**
 * The standalone chart's NFD where it is the one that labels a static
 * cluster's GPU nodes (the bootstrap's GPU Operator then runs none,
 * `operatorOperands`) and does not apply, or may not apply, the taints of
 * the cluster's pools: with a node inventory (profile `staticNodes`) each
 * pool is a NodeFeatureRule whose taint only an nfd-master run with
 * `-enable-taints` puts on the nodes (node-feature-discovery v0.19.0
 * `pkg/nfd-master/nfd-master.go`). Undefined where the taints are applied,
 * or the cluster's pools are no NodeFeatureRules.
 */
export function chartNfdLeavesPoolTaintsOff(
  cluster: Pick<ClusterProfile, 'provider' | 'staticNodes'>,
  stack: ClusterGpuStack | undefined,
): ChartFeatureDiscovery | undefined {
  const discovery = stack?.chartFeatureDiscovery;
  if (
    cluster.provider !== 'static' ||
    cluster.staticNodes === undefined ||
    !discovery?.nfd ||
    !discovery.nfdOnGpuNodes ||
    discovery.nfdAppliesTaints === true
  ) {
    return undefined;
  }
  return discovery;
}

/** What the MIG manager reads instead, in a reviewer's words. */
export function migManagerReads(elsewhere: MigManagerConfigElsewhere): string {
  return elsewhere.configMap === ''
    ? 'its own config, generated from the GPUs it finds'
    : `ConfigMap ${elsewhere.configMap}`;
}

/**
 * What runs on a cluster's GPU nodes, as its repository declares it; an
 * empty object when only what the product assumes (the GPU Operator's
 * device plugin and MIG manager) runs.
 *
 * @public
 */
export interface ClusterGpuStack {
  /**
   * The device plugin serving the GPU nodes, when it is not the GPU
   * Operator's: one of `devicePlugins`, as the capability rules read it.
   */
  devicePlugin?: OtherDevicePlugin;
  /** The GPU Operator's default device-plugin config shares every GPU: how, and where. */
  operatorSharesByDefault?: OperatorDefaultSharing;
  /** The GPU Operator runs no MIG manager: where that is set. */
  migManagerOff?: StackSetting;
  /** The GPU Operator's MIG manager reads another ConfigMap than the profile's `migPartedConfigMap`. */
  migManagerConfigElsewhere?: MigManagerConfigElsewhere;
  /**
   * Every device plugin the repository deploys for the cluster; absent when
   * it declares none (the GPU Operator's, installed elsewhere, is assumed).
   */
  devicePlugins?: DeployedDevicePlugin[];
  /** Every NVIDIA DRA driver the repository deploys for the cluster; absent when none. */
  draDrivers?: DeployedDraDriver[];
  /** A GPU Operator release the repository declares turns its device plugin off: where. */
  operatorDevicePluginOff?: StackSetting;
  /** A standalone device-plugin release deploys GPU feature discovery or NFD: which, and where. */
  chartFeatureDiscovery?: ChartFeatureDiscovery;
}
