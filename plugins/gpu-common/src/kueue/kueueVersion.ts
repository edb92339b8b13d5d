/**
 * The Kueue release a cluster runs, from its profile's `kueueVersion`: the
 * version of the Helm chart the bootstrap installs, which kubernetes-sigs/kueue
 * releases with the image (`charts/kueue/Chart.yaml`: `version` and
 * `appVersion` both set to the git tag). v0.19 is the oldest the product
 * writes for: its objects are `kueue.x-k8s.io/v1beta2`, and its DRA
 * integration counts claims through `deviceClassMappings` and extended
 * resources (beta and on since v0.19, `pkg/features/kube_features.go`).
 */
import type { ClusterProfile } from '../cluster/types';

/**
 * The release the bootstrap installs when the profile names none
 * (kubernetes-sigs/kueue v0.19.2, 2026-08-20).
 *
 * @public
 */
export const DEFAULT_KUEUE_VERSION = '0.19.2';

const OLDEST_MINOR = 19;

/** True for a release `0.<minor>.<patch>` (no leading `v`, as the chart's version) of v0.19 or later. */
export function isSupportedKueueVersion(version: string): boolean {
  const match = /^0\.(\d+)\.(\d+)$/.exec(version);
  return match !== null && Number(match[1]) >= OLDEST_MINOR;
}

/**
 * The Kueue release of a cluster whose profile enables Kueue.
 *
 * @public
 */
export function kueueVersionOf(
  cluster: Pick<ClusterProfile, 'kueueVersion'>,
): string {
  return cluster.kueueVersion ?? DEFAULT_KUEUE_VERSION;
}
