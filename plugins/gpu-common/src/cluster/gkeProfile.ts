/**
 * What a `gke` cluster profile may not set: what GKE runs on its GPU nodes
 * itself. Sources, each as published in 2026:
 * - "Run GPUs in GKE Standard node pools" and "About custom compute
 *   classes" (cloud.google.com/kubernetes-engine/docs): a ComputeClass GPU
 *   rule's `gpu.driverVersion` (the node pool's `gpuDriverInstallationConfig`,
 *   `default` or `latest`) makes GKE install the NVIDIA driver, and GKE runs
 *   its own NVIDIA device plugin on every GPU node unless the node carries
 *   `gke-no-default-nvidia-gpu-device-plugin=true`.
 * - "Share GPUs with multiple workloads" / "Running multi-instance GPUs":
 *   time-sharing, MPS and MIG partitions are the ComputeClass's
 *   `gpuSharing` / `gpuPartitionSize`, read by GKE's device plugin; it reads
 *   no device-plugin or mig-parted ConfigMap, and advertises every MIG
 *   partition as `nvidia.com/gpu` (the single strategy, always).
 * - GKE's autoscaler, not Karpenter, creates the nodes: no NodeOverlay, no
 *   node class, no Karpenter gate applies; DRA is refused per request
 *   (`gkeCapability.ts`).
 */
import { defaultClusterProfile } from './defaults';
import type { ClusterProvider, ConfigMapRef } from './types';

/** A profile field GKE rules out: its path, the rule and why. */
export interface GkeProfileProblem {
  path: string[];
  rule: string;
  message: string;
}

/** The settings of a profile this file reads, as given or resolved. */
interface GkeProfileFields {
  provider?: ClusterProvider;
  migStrategy?: string;
  generateNodeClass?: boolean;
  devicePluginConfigMap?: Partial<ConfigMapRef>;
  migPartedConfigMap?: Partial<ConfigMapRef>;
  dra?: object;
}

/**
 * Whether a ConfigMap reference names another ConfigMap than the default
 * one: a resolved profile always carries the default (the validators
 * resolve a resolved profile again), which asks nothing of the cluster.
 */
function namesOwnConfigMap(
  ref: Partial<ConfigMapRef> | undefined,
  base: ConfigMapRef,
): boolean {
  return (
    ref !== undefined &&
    ((ref.name ?? base.name) !== base.name ||
      (ref.namespace ?? base.namespace) !== base.namespace)
  );
}

/** A problem of a field set on a `gke` profile. */
function owned(field: string, rule: string, why: string): GkeProfileProblem {
  return {
    path: [field],
    rule,
    message: `does not apply to provider "gke": ${why}; leave it out`,
  };
}

/**
 * What a `gke` profile sets that GKE does not let the platform set. The
 * Karpenter settings (`karpenterVersion`, `nodeOverlay`) have defaults every
 * resolved profile carries, and nothing on GKE reads them: not refused.
 */
export function gkeProfileProblems(
  profile: GkeProfileFields,
): GkeProfileProblem[] {
  if (profile.provider !== 'gke') return [];
  const base = defaultClusterProfile;
  const problems: GkeProfileProblem[] = [];
  if (profile.migStrategy === 'mixed') {
    problems.push({
      path: ['migStrategy'],
      rule: 'gke-mig-strategy',
      message:
        'must be "single" for provider "gke": GKE\'s device plugin advertises every MIG partition as nvidia.com/gpu',
    });
  }
  if (namesOwnConfigMap(profile.devicePluginConfigMap, base.devicePluginConfigMap)) {
    problems.push(
      owned(
        'devicePluginConfigMap',
        'gke-device-plugin',
        "GKE runs its own NVIDIA device plugin on its GPU nodes and shares GPUs as each ComputeClass's gpuSharing says; it reads no device-plugin ConfigMap",
      ),
    );
  }
  if (namesOwnConfigMap(profile.migPartedConfigMap, base.migPartedConfigMap)) {
    problems.push(
      owned(
        'migPartedConfigMap',
        'gke-mig-partitions',
        "GKE partitions MIG GPUs itself, by each ComputeClass's gpuSharing.gpuPartitionSize; no mig-parted runs there",
      ),
    );
  }
  if (profile.generateNodeClass) {
    problems.push(
      owned(
        'generateNodeClass',
        'gke-node-class',
        'GKE creates the node pools of each ComputeClass itself; there is no Karpenter node class to write',
      ),
    );
  }
  if (profile.dra !== undefined) {
    problems.push(
      owned(
        'dra',
        'gke-dra-autoscaling',
        "GKE's autoscaler does not create nodes for DRA (no node auto-provisioning, no Autopilot), so no DRA pool is planned on GKE and no DRA driver is installed",
      ),
    );
  }
  return problems;
}
