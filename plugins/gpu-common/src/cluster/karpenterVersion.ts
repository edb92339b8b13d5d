/**
 * Karpenter feature checks by version. `Gte` / `Lte` requirement operators
 * exist only from v1.9.0 (the operator enum of aws/karpenter-provider-aws
 * `pkg/apis/crds/karpenter.sh_nodepools.yaml` at v1.9.0; v1.8.x lacks them);
 * older clusters need `Gt` / `Lt`.
 */
const GTE_LTE_SINCE: readonly [number, number, number] = [1, 9, 0];

/**
 * The NodeOverlay feature gate exists from v1.7.0: both providers' charts pass
 * `NodeOverlay=<settings.featureGates.nodeOverlay>` to the controller from
 * that release on (`charts/karpenter/templates/deployment.yaml`, FEATURE_GATES,
 * of aws/karpenter-provider-aws v1.7.0 and Azure/karpenter-provider-azure
 * v1.7.0; v1.6.x has no such gate).
 */
const NODE_OVERLAY_GATE_SINCE: readonly [number, number, number] = [1, 7, 0];

/**
 * From v1.1.0 Karpenter serves its v1 APIs only: v1.0 was the last release
 * to serve (and convert) `karpenter.sh/v1beta1` and
 * `karpenter.k8s.aws/v1beta1` (`website/content/en/v1.0/upgrading/v1-migration.md`,
 * aws/karpenter-provider-aws: "v1.1 drops v1beta1"); v1alpha5 went in v0.33.
 */
const V1_ONLY_SINCE: readonly [number, number, number] = [1, 1, 0];

/**
 * Karpenter launches nodes for pods with DRA resource claims from v1.15.0 on
 * AWS ("nvidia and efa driver dra support (#9550)", aws/karpenter-provider-aws
 * v1.15.0 release notes; alpha, behind the AWS feature gate DRANVIDIAGPU).
 * Up to v1.14 core ignores such pods (`IGNORE_DRA_REQUESTS`, default true).
 */
const DRA_PROVISIONING_SINCE: readonly [number, number, number] = [1, 15, 0];

const VERSION = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/;

/** Parses `1.14.1`, `v1.9`, `1.10.0-rc.1` into [major, minor, patch]; undefined otherwise. */
export function parseKarpenterVersion(
  version: string,
): [number, number, number] | undefined {
  const match = VERSION.exec(version.trim());
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

function atLeast(
  version: string,
  minimum: readonly [number, number, number],
): boolean {
  const parsed = parseKarpenterVersion(version);
  if (!parsed) return false;
  for (let i = 0; i < 3; i++) {
    if (parsed[i] !== minimum[i]) return parsed[i] > minimum[i];
  }
  return true;
}

/** True when NodePool / NodeOverlay requirements may use `Gte` and `Lte`. */
export function karpenterSupportsGte(version: string): boolean {
  return atLeast(version, GTE_LTE_SINCE);
}

/**
 * True when a Karpenter version has the NodeOverlay feature gate; undefined
 * when the version is not one release (a range such as `1.x`).
 *
 * @public
 */
export function karpenterHasNodeOverlayGate(
  version: string,
): boolean | undefined {
  if (!parseKarpenterVersion(version)) return undefined;
  return atLeast(version, NODE_OVERLAY_GATE_SINCE);
}

/**
 * True when a Karpenter version serves none of the pre-v1 APIs (v1alpha5,
 * v1beta1), so objects of them cannot be applied; undefined when the version
 * is not one release.
 *
 * @public
 */
export function karpenterServesOnlyV1(version: string): boolean | undefined {
  if (!parseKarpenterVersion(version)) return undefined;
  return atLeast(version, V1_ONLY_SINCE);
}

/**
 * True when a Karpenter version can launch nodes for DRA claims (with its
 * gate on): AWS's `DRANVIDIAGPU` gate exists from then on.
 *
 * @public
 */
export function karpenterProvisionsDra(version: string): boolean {
  return atLeast(version, DRA_PROVISIONING_SINCE);
}
