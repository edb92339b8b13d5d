/**
 * Karpenter's Helm chart as each provider publishes it, and the value that
 * turns its NodeOverlay feature gate on. Upstream facts, with their sources:
 *
 * - AWS installs `oci://public.ecr.aws/karpenter/karpenter` with
 *   `--version "${KARPENTER_VERSION}"` (e.g. `1.14.1`) into
 *   `KARPENTER_NAMESPACE="kube-system"` (aws/karpenter-provider-aws,
 *   `website/content/en/v1.14/getting-started/getting-started-with-karpenter/_index.md`
 *   and `scripts/step08-apply-helm-chart.sh`).
 * - Azure installs `oci://mcr.microsoft.com/aks/karpenter/karpenter` the same
 *   way, `KARPENTER_NAMESPACE=kube-system` (Azure/karpenter-provider-azure
 *   v1.14.2 `README.md`, "Install Karpenter").
 * - Both publish the chart under the release's version without its `v`
 *   (`hack/release/release.sh`: `release "${commit_sha}" "${git_tag#v}"`;
 *   `hack/release/common.sh`: `helm_chart_version="${version}"`, in
 *   aws/karpenter-provider-aws v1.14.1 and Azure/karpenter-provider-azure v1.14.2).
 * - Both charts read the gate from `settings.featureGates.nodeOverlay`
 *   (default `false`, "ALPHA and is disabled by default") into
 *   `FEATURE_GATES=…,NodeOverlay=<value>` of the controller
 *   (`charts/karpenter/values.yaml` and `templates/deployment.yaml`, same tags);
 *   the value first appears in v1.7.0 of both charts.
 */
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';

/** The chart's name, and the name every detected Karpenter release carries. */
export const KARPENTER_CHART = 'karpenter';

/** Where the chart keeps the gate, as a path and as people write it. */
export const NODE_OVERLAY_VALUE_PATH = [
  'settings',
  'featureGates',
  'nodeOverlay',
] as const;
export const NODE_OVERLAY_VALUE_KEY = NODE_OVERLAY_VALUE_PATH.join('.');

/** The chart's own default for the gate (both charts, `values.yaml`). */
export const NODE_OVERLAY_CHART_DEFAULT = false;

/** One provider's Karpenter chart. */
export interface KarpenterChart {
  /** kustomize `helmCharts` `repo`: an `oci://` repository kustomize pulls `<repo>/<name>` from (kustomize v5.2.0 and later). */
  repo: string;
  /** The namespace upstream's install instructions use. */
  namespace: string;
  /** The upstream repository whose `charts/karpenter/values.yaml` documents the values. */
  upstream: string;
  /** The Kubernetes service it runs on, for the reviewer's words. */
  platform: 'EKS' | 'AKS';
  /**
   * Values the chart will not render without, which only the platform team
   * knows: written blank, with a comment saying so.
   */
  requiredValues: { path: readonly string[]; what: string }[];
  /** What else the platform team gives the release before its first sync. */
  alsoNeeded: string;
  /** How a cluster may run Karpenter without a release in the repository. */
  runsElsewhere: string;
}

const CHARTS: Partial<Record<ClusterProfile['provider'], KarpenterChart>> = {
  'aws-karpenter': {
    repo: 'oci://public.ecr.aws/karpenter',
    namespace: 'kube-system',
    upstream: 'aws/karpenter-provider-aws',
    platform: 'EKS',
    // templates/deployment.yaml (v1.14.1): `required "Chart cannot be
    // installed without a valid settings.clusterName!"`.
    requiredValues: [
      {
        path: ['settings', 'clusterName'],
        what: "the EKS cluster's name; the chart refuses to render without it",
      },
    ],
    // The getting-started guide gives the controller its IAM role through an
    // EKS Pod Identity association for the `karpenter` service account
    // (scripts/step02-create-cluster.sh), or the IRSA annotation
    // (migrating-from-cas/scripts/step08-generate-chart.sh), and sets
    // `settings.interruptionQueue` (scripts/step08-apply-helm-chart.sh).
    alsoNeeded:
      'the controller\'s IAM role (an EKS Pod Identity association for the `karpenter` service account in `kube-system`, or `serviceAccount.annotations."eks.amazonaws.com/role-arn"`), and `settings.interruptionQueue` for interruption handling',
    runsElsewhere: 'installed outside this repository (Terraform, eksctl)',
  },
  'azure-karpenter': {
    repo: 'oci://mcr.microsoft.com/aks/karpenter',
    namespace: 'kube-system',
    upstream: 'Azure/karpenter-provider-azure',
    platform: 'AKS',
    // The chart renders without them, but the controller needs the AKS
    // cluster's settings, which upstream's hack/deploy/configure-values.sh
    // reads from the cluster into karpenter-values-template.yaml (v1.14.2
    // README.md, "Configure Helm chart values").
    requiredValues: [],
    alsoNeeded:
      "the AKS cluster's own values (`controller.env`, `serviceAccount`, `podLabels`) as upstream's `hack/deploy/configure-values.sh` writes them from `karpenter-values-template.yaml` of the pinned version",
    // README.md, "Node Auto Provisioning (NAP) vs. Self-hosted Karpenter".
    runsElsewhere:
      'run by AKS Node Auto Provisioning (the managed mode upstream recommends) or installed outside this repository',
  },
};

/**
 * The Karpenter chart of a cluster's provider; undefined where Karpenter does
 * not launch the nodes (`static`, `cluster-api`).
 */
export function karpenterChartOf(
  cluster: Pick<ClusterProfile, 'provider'>,
): KarpenterChart | undefined {
  return CHARTS[cluster.provider];
}

/** The chart version of a Karpenter version: the same number, without a leading `v`. */
export function karpenterChartVersion(karpenterVersion: string): string {
  return karpenterVersion.trim().replace(/^v/, '');
}
