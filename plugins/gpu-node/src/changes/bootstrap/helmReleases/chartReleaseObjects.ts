/**
 * A chart the bootstrap installs, as the GitOps tool that applies the
 * cluster installs charts (`chartReleaseForm`), for the repositories where a
 * kustomize `helmCharts` entry never gets built:
 * - Flux: an OCI `HelmRepository` (source.toolkit.fluxcd.io/v1, `type: oci`,
 *   https://fluxcd.io/flux/components/source/helmrepositories/#helm-oci-repository)
 *   and a `HelmRelease` (helm.toolkit.fluxcd.io/v2) of the chart from it,
 *   beside the repository's own Flux objects (`gitOpsToolNamespace`),
 *   installing into the chart's namespace; checked against
 *   fluxcd/source-controller v1.9.1 and fluxcd/helm-controller v1.6.3 CRDs
 *   (`draDriver/__fixtures__/crds/`);
 * - Argo CD: an `Application` (argoproj.io/v1alpha1) whose source is the
 *   chart, in the namespace of the repository's own Applications; Argo CD
 *   names a public OCI Helm registry without `oci://` (argo-cd v3.5.1
 *   `docs/user-guide/helm.md`).
 * Both carry the values inline, so the folder holds no chart to inflate and
 * is applied like any folder of plain manifests.
 */

/** An OCI chart as the bootstrap pins it. */
export interface OciChart {
  /** The chart's name, and the name of the release. */
  chart: string;
  /** The `oci://` repository the chart is pulled from (`<repo>/<chart>`). */
  repo: string;
  version: string;
  /** The namespace the release installs into. */
  namespace: string;
  /** The name of the Flux HelmRepository of `repo`. */
  helmRepositoryName: string;
}

/** The Flux HelmRepository and HelmRelease of `chart`. */
export function fluxChartObjects(
  chart: OciChart,
  values: Record<string, unknown>,
  /** Where the repository keeps its Flux objects. */
  namespace: string,
): Record<string, unknown>[] {
  return [
    {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'HelmRepository',
      metadata: { name: chart.helmRepositoryName, namespace },
      spec: { type: 'oci', interval: '1h', url: chart.repo },
    },
    {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: chart.chart, namespace },
      spec: {
        interval: '1h',
        releaseName: chart.chart,
        targetNamespace: chart.namespace,
        chart: {
          spec: {
            chart: chart.chart,
            version: chart.version,
            sourceRef: {
              kind: 'HelmRepository',
              name: chart.helmRepositoryName,
            },
          },
        },
        // The charts ship their CRDs; kept current on upgrade.
        install: { createNamespace: true, crds: 'CreateReplace' },
        upgrade: { crds: 'CreateReplace' },
        values,
      },
    },
  ];
}

/** The Argo CD Application of `chart`. */
export function argoChartApplication(
  chart: OciChart,
  values: Record<string, unknown>,
  /** Where the repository keeps its Argo CD Applications. */
  namespace: string,
): Record<string, unknown> {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: chart.chart, namespace },
    spec: {
      project: 'default',
      destination: {
        server: 'https://kubernetes.default.svc',
        namespace: chart.namespace,
      },
      source: {
        repoURL: chart.repo.replace(/^oci:\/\//, ''),
        chart: chart.chart,
        targetRevision: chart.version,
        helm: { releaseName: chart.chart, valuesObject: values },
      },
      syncPolicy: { syncOptions: ['CreateNamespace=true'] },
    },
  };
}
