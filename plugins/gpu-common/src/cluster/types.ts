import type { ClusterApiSettings } from './clusterApi';
import type { ClusterDraSettings } from './draSettings';
import type { StaticNodesSettings } from './staticNodes';

/**
 * A cluster profile: what the planner and the manifest builders must know
 * about the target cluster. Built-in defaults, overridable by a file or by
 * the `gpu.clusters` app-config.
 *
 * @public
 */

export type ClusterProvider =
  | 'aws-karpenter'
  | 'eks-auto-mode'
  | 'azure-karpenter'
  | 'static'
  | 'cluster-api'
  | 'gke';

/**
 *  How the device plugin exposes MIG devices (ClusterPolicy `mig.strategy`).
 *
 * @public
 */
export type MigStrategy = 'single' | 'mixed';

/** @public */
export interface ConfigMapRef {
  name: string;
  namespace: string;
}

/** @public */
export interface ClusterProfile {
  /** DNS-1123 label; used in repository paths (`clusters/<name>/gpu`). */
  name: string;
  provider: ClusterProvider;
  /** The provider's region, e.g. `eu-west-1` (shown beside the cluster's name in the request form). */
  region?: string;
  /** Karpenter version, e.g. `1.14.1`; decides which operators (`Gte`, `Lte`) may be used. */
  karpenterVersion: string;
  /** The cluster's Kubernetes version, e.g. `1.36.2`; decides what DRA can do. */
  kubernetesVersion?: string;
  /** Karpenter's DRA gate and the NVIDIA DRA driver's sharing (see draSettings.ts). */
  dra?: ClusterDraSettings;
  /** The EC2NodeClass (or AKSNodeClass) every GPU NodePool references. */
  nodeClass: { group: string; kind: string; name: string };
  /** Also generate the EC2NodeClass named above (alias-based AMI selection). */
  generateNodeClass: boolean;
  /** The ConfigMap holding named device-plugin configs (`devicePlugin.config.name`). */
  devicePluginConfigMap: ConfigMapRef;
  /** The ConfigMap holding the mig-parted config (`migManager.config.name`). */
  migPartedConfigMap: ConfigMapRef;
  migStrategy: MigStrategy;
  /** Karpenter runs with its NodeOverlay feature gate (NodeOverlays are written; without it, renamed resources are refused). */
  nodeOverlay: boolean;
  /** Taint key that keeps non-GPU and non-matching pods off GPU pools. */
  gpuTaintKey: string;
  /** Label / annotation domain for our own labels, e.g. `gpu.backstage.io`. */
  labelDomain: string;
  /** `spec.disruption.consolidateAfter` for generated NodePools, e.g. `5m`. */
  consolidateAfter: string;
  /**
   * Namespaces no GPU request may target: the control plane's and the
   * platform's own (the GPU Operator's and Karpenter's). The namespaces of
   * the two config ConfigMaps are always added.
   */
  systemNamespaces: string[];
  /** Provider `cluster-api` only: where and how its MachineDeployments are written. */
  clusterApi?: ClusterApiSettings;
  /**
   * Provider `static` only: the node inventory and how pools choose nodes
   * (each pool is then an NFD NodeFeatureRule). Absent: nothing is written
   * for a static pool and no inventory limits it.
   */
  staticNodes?: StaticNodesSettings;
  /**
   * Kueue (v0.19, `kueue.x-k8s.io/v1beta2`) admits the cluster's GPU
   * workloads: each change also writes the queues (gpu-common `kueue/`) and
   * labels the workload with its team's LocalQueue. Absent: off.
   */
  kueue?: boolean;
  /**
   * With `kueue`: the Kueue release the bootstrap installs (its chart's
   * version, e.g. `0.19.2`; v0.19 or later). Absent: `DEFAULT_KUEUE_VERSION`.
   */
  kueueVersion?: string;
  /**
   * The bootstrap runs the bin-packing scheduler (`gpu-binpack`, a second
   * kube-scheduler at `kubernetesVersion`) and the GPU workloads the
   * product renders name it in `schedulerName` (gpu-common
   * `scheduling/binPackingScheduler.ts`). Absent: off, the default scheduler.
   */
  binPacking?: boolean;
}
