/**
 * What a cluster profile says about Dynamic Resource Allocation: whether
 * Karpenter provisions nodes for DRA claims, and how the NVIDIA DRA driver
 * shares a GPU. Sources, each at the version named:
 * - aws/karpenter-provider-aws v1.15 task page "Utilizing GPUs and EFAs with
 *   DRA" (`website/.../tasks/dra.md`, Alpha) and the chart's `karpenter.dra`
 *   helper (`charts/karpenter/templates/_helpers.tpl`): with only the NVIDIA
 *   driver installed, turn on `settings.awsFeatureGates.draNVIDIAGPU` (the
 *   AWS feature gate `DRANVIDIAGPU`, which also stops ignoring DRA
 *   requests); `settings.enableDRA` turns on the EFA gate too and assumes
 *   both drivers run; the two settings are mutually exclusive. DRA needs
 *   Kubernetes 1.34; GPU sharing needs 1.36 (consumable capacity on by
 *   default there).
 * - kubernetes-sigs/dra-driver-nvidia-gpu 0.5 (@95932046)
 *   `deployments/helm/dra-driver-nvidia-gpu/values.yaml` (`consumableShares`,
 *   `featureGates.ConsumableShares`) and `demo/specs/consumable-shares/`:
 *   an integer N publishes a `shares` capacity of N on every GPU of the node,
 *   and each claim takes one share by default.
 */
import { z } from 'zod';
import { parseKarpenterVersion } from './karpenterVersion';

/**
 * Dynamic Resource Allocation on a cluster: Karpenter's DRA gate and the
 * NVIDIA DRA driver's GPU sharing.
 *
 * @public
 */
export interface ClusterDraSettings {
  /**
   * Karpenter runs with the AWS feature gate `DRANVIDIAGPU`
   * (`settings.awsFeatureGates.draNVIDIAGPU: true`, or
   * `settings.enableDRA: true` when the EFA driver runs too): it launches
   * nodes for pending DRA claims (Karpenter ≥ 1.15).
   */
  karpenterNvidiaGate?: boolean;
  /**
   * The NVIDIA DRA driver's integer `consumableShares` (with
   * `featureGates.ConsumableShares: true`): every GPU of a DRA node takes
   * that many claims. Absent: one claim holds a whole GPU.
   */
  consumableShares?: number;
  /**
   * The driver serves the MIG instances mig-parted cuts on the DRA pools'
   * nodes (static MIG, on by default in the driver: dra-driver-nvidia-gpu at 95932046
   * `site/content/docs/guides/gpu-allocation/mig.md`): a `dra` request whose
   * memory fits a MIG profile of its model claims one instance through
   * DeviceClass `mig.nvidia.com`. The driver's `DynamicMIG` stays off.
   */
  staticMig?: boolean;
}

/** Kubernetes serves `resource.k8s.io/v1` from 1.34 (DRA GA). */
export const DRA_KUBERNETES_SINCE: readonly [number, number, number] = [
  1, 34, 0,
];

/** DRA GPU sharing (consumable capacity on by default) from Kubernetes 1.36. */
export const DRA_SHARING_KUBERNETES_SINCE: readonly [number, number, number] = [
  1, 36, 0,
];

/** The largest share count the product plans: the MPS client limit. */
const MAX_CONSUMABLE_SHARES = 48;

export const draSettingsSchema = z
  .strictObject({
    karpenterNvidiaGate: z.boolean(),
    consumableShares: z
      .number()
      .int()
      .min(2, {
        message:
          'must be at least 2 (one claim per GPU needs no consumable shares: leave it out)',
      })
      .max(MAX_CONSUMABLE_SHARES),
    staticMig: z.boolean(),
  })
  .partial()
  // The driver's consumable shares are one flag for every device of its
  // nodes, MIG instances included: claims would share an instance.
  .refine(dra => !(dra.staticMig && dra.consumableShares !== undefined), {
    message:
      'staticMig cannot go with consumableShares: the DRA driver splits every device of its nodes into the shares, MIG instances included, so MIG claims would share an instance; leave one out',
    path: ['staticMig'],
    params: { rule: 'dra-static-mig-shares' },
  });

export const kubernetesVersionSchema = z
  .string()
  .refine(v => parseKarpenterVersion(v) !== undefined, {
    message: 'must be a Kubernetes version such as "1.36" or "1.36.2"',
    params: { rule: 'version' },
  });

/** True when `version` (e.g. `1.36.2`) is at least `minimum`; false when unknown. */
export function kubernetesAtLeast(
  version: string | undefined,
  minimum: readonly [number, number, number],
): boolean {
  const parsed = version ? parseKarpenterVersion(version) : undefined;
  if (!parsed) return false;
  for (let i = 0; i < 3; i++) {
    if (parsed[i] !== minimum[i]) return parsed[i] > minimum[i];
  }
  return true;
}

/** `1.36` as a message says it. */
export function formatMinor(
  version: readonly [number, number, number],
): string {
  return `${version[0]}.${version[1]}`;
}

/**
 * True when a cluster profile runs GPUs through NVIDIA's DRA driver: it
 * states `dra` settings and a Kubernetes that serves `resource.k8s.io/v1`.
 * The bootstrap installs the driver exactly then.
 *
 * @public
 */
export function profileEnablesDra(cluster: {
  dra?: ClusterDraSettings;
  kubernetesVersion?: string;
}): boolean {
  return (
    cluster.dra !== undefined &&
    kubernetesAtLeast(cluster.kubernetesVersion, DRA_KUBERNETES_SINCE)
  );
}
