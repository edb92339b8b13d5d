/**
 * GPU sharing through the NVIDIA DRA driver's consumable shares: claims of
 * one share each co-allocate on a GPU only where Kubernetes enables
 * consumable capacity by default, 1.36 and later (KEP-5075 beta; Karpenter's
 * DRA task page: "GPU sharing through DRA requires Kubernetes 1.36 or
 * later"). Below, the scheduler ignores `allowMultipleAllocations` and every
 * claim holds a whole GPU.
 */
import {
  DRA_SHARING_KUBERNETES_SINCE,
  formatMinor,
  kubernetesAtLeast,
  type ClusterDraSettings,
} from './draSettings';

/** Why a profile's DRA sharing cannot work; undefined when it can (or none is set). */
export function draSharingProblem(profile: {
  kubernetesVersion?: string;
  dra?: Partial<ClusterDraSettings>;
}): string | undefined {
  const shares = profile.dra?.consumableShares;
  if (shares === undefined) return undefined;
  if (
    kubernetesAtLeast(profile.kubernetesVersion, DRA_SHARING_KUBERNETES_SINCE)
  ) {
    return undefined;
  }
  const since = formatMinor(DRA_SHARING_KUBERNETES_SINCE);
  return `GPU sharing through DRA consumable shares (${shares} per GPU) needs Kubernetes ${since} or later, where consumable capacity is on by default; kubernetesVersion is ${profile.kubernetesVersion ?? 'unset'}: set kubernetesVersion to ${since} or later once the cluster runs it, or leave consumableShares out (one claim per GPU)`;
}
