/**
 * Kueue as the bootstrap installs it: kubernetes-sigs/kueue's Helm chart
 * `kueue`, published at `oci://registry.k8s.io/kueue/charts/kueue` with the
 * chart version equal to the release (`charts/kueue/Chart.yaml`; install
 * with `helm install kueue oci://registry.k8s.io/kueue/charts/kueue
 * --version="0.19.2" --create-namespace --namespace=kueue-system`,
 * `charts/kueue/README.md`, v0.19.2).
 */
import type { OciChart } from '../helmReleases/chartReleaseObjects';

/** The chart's name, and the release's. */
export const KUEUE_CHART = 'kueue';

/** The namespace upstream installs into; the chart's webhooks and the ConfigMap `kueue-manager-config` live there. */
export const KUEUE_NAMESPACE = 'kueue-system';

/** The chart at the cluster's Kueue release. */
export function kueueChart(version: string): OciChart {
  return {
    chart: KUEUE_CHART,
    repo: 'oci://registry.k8s.io/kueue/charts',
    version,
    namespace: KUEUE_NAMESPACE,
    helmRepositoryName: 'kueue',
  };
}
