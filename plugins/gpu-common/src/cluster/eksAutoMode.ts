/**
 * What EKS Auto Mode runs on its GPU nodes, and so what the product can and
 * cannot ask of them. Sources, each as published in 2026:
 * - awsdocs/amazon-eks-user-guide `latest/ug/automode/auto-accelerated.adoc`:
 *   Auto Mode includes the NVIDIA device plugin, which "is not visible as a
 *   daemon set within your cluster": there is no Helm value, ConfigMap or
 *   node label of ours it reads, so no time-slicing, MPS or MIG config the
 *   product writes (selected by `nvidia.com/device-plugin.config` or
 *   `nvidia.com/mig.config`) ever applies, and its nodes advertise whole
 *   `nvidia.com/gpu` only.
 * - docs.aws.amazon.com/eks/latest/userguide/device-management-nvidia-dra-device-plugin.html
 *   (the us_us page as of 2026-11; the repository's copy at 43d79bd still said
 *   "not currently supported with EKS Auto Mode"): Auto Mode ships NVIDIA's
 *   DRA driver in the node runtime on Kubernetes 1.36 and later and "prevents
 *   the DRA driver and the device plugin from managing GPUs on the same
 *   node". So GPUs shared or claimed through DRA are Auto Mode's one way
 *   beyond whole GPUs, from 1.36, with the driver AWS configures: no driver
 *   release and no consumable-shares setting of ours.
 * - `latest/ug/automode/create-node-pool.adoc`: NodePools reference the
 *   `default` NodeClass when the built-in node pools are on.
 * - Karpenter's NodeOverlay (`karpenter.sh/v1alpha1`, gate `NodeOverlay`)
 *   is documented for self-managed Karpenter only; no Auto Mode page names it
 *   and AWS sets Auto Mode's Karpenter gates, so the product writes none.
 */
import type { Unavailable } from './unavailable';
import {
  DRA_SHARING_KUBERNETES_SINCE,
  formatMinor,
  kubernetesAtLeast,
} from './draSettings';
import type { GpuCatalog, InstanceType } from '../catalog/types';
import type { ClusterProfile, ClusterProvider } from './types';
import type { SharingMode } from '../request/types';

/** The provider id of EKS Auto Mode clusters. */
export const EKS_AUTO_MODE: ClusterProvider = 'eks-auto-mode';

/** The NodeClass Auto Mode provisions with its built-in node pools. */
export const AUTO_MODE_DEFAULT_NODE_CLASS = 'default';

/** Auto Mode's NVIDIA DRA driver, in the node runtime from this Kubernetes. */
export const AUTO_MODE_DRA_KUBERNETES_SINCE = DRA_SHARING_KUBERNETES_SINCE;

const DEVICE_PLUGIN_CONFIGURED: readonly SharingMode[] = [
  'time-slicing',
  'mps',
  'mig',
];

/** Why an EKS Auto Mode cluster cannot run `mode`; undefined when it can (or the cluster is not Auto Mode). */
export function autoModeUnavailable(
  cluster: Pick<ClusterProfile, 'name' | 'provider' | 'kubernetesVersion'>,
  mode: SharingMode,
): Unavailable | undefined {
  if (cluster.provider !== EKS_AUTO_MODE) return undefined;
  const since = formatMinor(AUTO_MODE_DRA_KUBERNETES_SINCE);
  if (DEVICE_PLUGIN_CONFIGURED.includes(mode)) {
    return {
      path: 'spec.gpu.sharing',
      rule: 'eks-auto-mode-device-plugin',
      reason: `cluster ${cluster.name} cannot run ${mode}: EKS Auto Mode runs its own NVIDIA device plugin, invisible in the cluster, which reads no device-plugin or MIG config of ours, so its nodes give whole GPUs only; ask for exclusive GPUs, or for dra (GPUs claimed through the NVIDIA DRA driver Auto Mode runs on Kubernetes ${since} and later)`,
    };
  }
  if (
    mode === 'dra' &&
    !kubernetesAtLeast(
      cluster.kubernetesVersion,
      AUTO_MODE_DRA_KUBERNETES_SINCE,
    )
  ) {
    return {
      path: 'spec.gpu.sharing',
      rule: 'eks-auto-mode-dra-kubernetes-version',
      reason: `cluster ${cluster.name} cannot run dra: EKS Auto Mode runs the NVIDIA DRA driver in its node runtime from Kubernetes ${since} only, and the cluster runs ${cluster.kubernetesVersion ?? 'an unstated version'} (profile kubernetesVersion); upgrade the cluster to ${since} or later and say so in kubernetesVersion, or ask for exclusive GPUs`,
    };
  }
  return undefined;
}

/** A profile field Auto Mode rules out: its path, the rule and why. */
export interface AutoModeProfileProblem {
  path: string[];
  rule: string;
  message: string;
}

/** What an `eks-auto-mode` profile sets that Auto Mode does not let the platform set. */
export function autoModeProfileProblems(profile: {
  provider?: ClusterProvider;
  generateNodeClass?: boolean;
  nodeOverlay?: boolean;
  dra?: { karpenterNvidiaGate?: boolean; consumableShares?: number };
}): AutoModeProfileProblem[] {
  if (profile.provider !== EKS_AUTO_MODE) return [];
  const problems: AutoModeProfileProblem[] = [];
  if (profile.generateNodeClass) {
    problems.push({
      path: ['generateNodeClass'],
      rule: 'eks-auto-mode-node-class',
      message:
        'cannot be true for provider "eks-auto-mode": its NodeClass (eks.amazonaws.com) is AWS\'s default or the platform team\'s, with a node role and subnets only they know; name it in nodeClass.name',
    });
  }
  if (profile.nodeOverlay) {
    problems.push({
      path: ['nodeOverlay'],
      rule: 'eks-auto-mode-node-overlay',
      message:
        'cannot be true for provider "eks-auto-mode": AWS runs its Karpenter and sets its feature gates, and no Auto Mode documentation offers NodeOverlays',
    });
  }
  if (profile.dra?.karpenterNvidiaGate !== undefined) {
    problems.push({
      path: ['dra', 'karpenterNvidiaGate'],
      rule: 'eks-auto-mode-karpenter-settings',
      message:
        'does not apply to provider "eks-auto-mode": AWS runs its Karpenter and sets its feature gates; leave it out',
    });
  }
  if (profile.dra?.consumableShares !== undefined) {
    problems.push({
      path: ['dra', 'consumableShares'],
      rule: 'eks-auto-mode-dra-driver',
      message:
        'does not apply to provider "eks-auto-mode": AWS runs and configures the NVIDIA DRA driver in the node runtime, so no consumable-shares setting of the platform reaches it; leave it out (each claim holds a whole GPU)',
    });
  }
  return problems;
}

/**
 * The accelerated EC2 families Auto Mode launches: it "only creates
 * instances of supported types" (awsdocs/amazon-eks-user-guide
 * `latest/ug/automode/automode-learn-instances.adoc`, "EKS Auto Mode
 * supported instance reference", Accelerated Computing row, commit 06faff14;
 * `g4ad`, `inf*` and `trn*` carry no NVIDIA GPU). A pool pinned to another
 * family (`p3`, `p6e-gb200`) would never get a node.
 */
const AUTO_MODE_GPU_FAMILIES: readonly string[] = [
  'p6-b200',
  'p6-b300',
  'p5',
  'p5e',
  'p5en',
  'p4d',
  'p4de',
  'p3dn',
  'g7e',
  'g6',
  'gr6',
  'g6e',
  'g5g',
  'g5',
  'g4dn',
];

/** Whether Auto Mode launches this EC2 machine. */
function autoModeLaunches(type: InstanceType): boolean {
  return (
    type.provider === 'aws' && AUTO_MODE_GPU_FAMILIES.includes(type.family)
  );
}

/**
 * The catalog an Auto Mode cluster plans with: only the EC2 machines Auto
 * Mode launches; any other cluster's catalog as it is.
 */
export function autoModeCatalog(
  catalog: GpuCatalog,
  cluster: Pick<ClusterProfile, 'provider'>,
): GpuCatalog {
  if (cluster.provider !== EKS_AUTO_MODE) return catalog;
  return {
    ...catalog,
    instanceTypes: catalog.instanceTypes.filter(autoModeLaunches),
  };
}
