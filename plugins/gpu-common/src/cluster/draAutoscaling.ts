/**
 * Whether a DRA pool of a cluster autoscales: Karpenter launches nodes for
 * pending claims only on AWS, from v1.15 with the DRANVIDIAGPU gate on, on
 * Kubernetes ≥ 1.34 (sources in draSettings.ts). Anywhere else a DRA pool is
 * a static one (`spec.replicas`), and the plan says what to set.
 */
import {
  DRA_KUBERNETES_SINCE,
  formatMinor,
  kubernetesAtLeast,
} from './draSettings';
import { karpenterProvisionsDra } from './karpenterVersion';
import type { ClusterProfile } from './types';

/** The Karpenter release the product pins for DRA (v1.15.1, 2026-10-23). */
export const KARPENTER_DRA_VERSION = '1.15.1';

/**
 * What keeps `cluster`'s Karpenter from launching nodes for DRA claims, in
 * the words of the settings to change; undefined when it launches them.
 */
export function draAutoscalingGap(
  cluster: Pick<
    ClusterProfile,
    'name' | 'provider' | 'karpenterVersion' | 'kubernetesVersion' | 'dra'
  >,
): string | undefined {
  if (cluster.provider === 'eks-auto-mode') {
    // EKS lists DRA under "Karpenter (static capacity only)"
    // (device-management-nvidia-dra-device-plugin.html) and AWS sets Auto
    // Mode's Karpenter gates, so no setting of the platform's changes it.
    return `EKS Auto Mode on cluster ${cluster.name} does not launch nodes for pods with DRA resource claims (AWS runs its Karpenter and sets its gates): a DRA pool there is a static-capacity NodePool whose replicas the plan sets`;
  }
  if (cluster.provider !== 'aws-karpenter') {
    return `Karpenter publishes DRA device metadata only for AWS instance types, so on provider ${cluster.provider} no node is launched for a DRA claim`;
  }
  const missing: string[] = [];
  if (!karpenterProvisionsDra(cluster.karpenterVersion)) {
    missing.push(
      `upgrade Karpenter from ${cluster.karpenterVersion} to ${KARPENTER_DRA_VERSION} or later (profile karpenterVersion)`,
    );
  }
  if (!cluster.dra?.karpenterNvidiaGate) {
    missing.push(
      'turn on its AWS feature gate DRANVIDIAGPU (Helm settings.awsFeatureGates.draNVIDIAGPU: true, or settings.enableDRA: true when the EFA DRA driver runs too) and set profile dra.karpenterNvidiaGate: true',
    );
  }
  if (!kubernetesAtLeast(cluster.kubernetesVersion, DRA_KUBERNETES_SINCE)) {
    missing.push(
      `run Kubernetes ${formatMinor(DRA_KUBERNETES_SINCE)} or later and say so in profile kubernetesVersion (now ${cluster.kubernetesVersion ?? 'unset'})`,
    );
  }
  if (missing.length === 0) return undefined;
  return `Karpenter ${cluster.karpenterVersion} on cluster ${cluster.name} does not provision nodes for pods with DRA resource claims: ${missing.join('; ')}`;
}

/** True when `cluster`'s DRA pools are static (Karpenter cannot scale them for claims). */
export function draPoolIsStatic(
  cluster: Parameters<typeof draAutoscalingGap>[0],
): boolean {
  return draAutoscalingGap(cluster) !== undefined;
}

/**
 * True when a DRA pool is static: on a cluster whose Karpenter cannot scale
 * for claims, and for MIG instances anywhere, which mig-parted cuts only
 * once the node runs (Karpenter's DRA simulation offers an instance type's
 * whole GPUs, never instances that do not exist yet).
 */
export function draPoolIsStaticFor(
  pool: { sharingMode: string; migProfile?: string },
  cluster: Parameters<typeof draAutoscalingGap>[0],
): boolean {
  return (
    pool.sharingMode === 'dra' &&
    (pool.migProfile !== undefined || draPoolIsStatic(cluster))
  );
}
