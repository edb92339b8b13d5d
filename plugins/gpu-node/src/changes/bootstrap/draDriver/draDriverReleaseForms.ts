/**
 * The DRA driver's release as the GitOps tool that applies the cluster
 * installs charts (`chartReleaseForm`), for the repositories where a
 * kustomize `helmCharts` entry never gets built:
 * - Flux: an OCI `HelmRepository` (source.toolkit.fluxcd.io/v1, `type: oci`,
 *   https://fluxcd.io/flux/components/source/helmrepositories/#helm-oci-repository)
 *   and a `HelmRelease` (helm.toolkit.fluxcd.io/v2) of the chart from it,
 *   beside the repository's own Flux objects (`gitOpsToolNamespace`),
 *   installing into the driver's namespace; checked
 *   against fluxcd/source-controller v1.9.1 and fluxcd/helm-controller
 *   v1.6.3 CRDs (`__fixtures__/crds/`);
 * - Argo CD: an `Application` (argoproj.io/v1alpha1) whose source is the
 *   chart, in the namespace of the repository's own Applications; Argo CD names a public OCI Helm registry without `oci://`
 *   (argo-cd v3.5.1 `docs/user-guide/helm.md`).
 * Both carry the values inline, so the folder holds no chart to inflate and
 * is applied like any folder of plain manifests.
 */
import {
  DRA_DRIVER_CHART,
  DRA_DRIVER_CHART_VERSION,
  DRA_DRIVER_NAMESPACE,
  DRA_DRIVER_REPO,
} from './draDriverChart';

const HELM_REPOSITORY_NAME = 'dra-driver-nvidia';

/** The Flux HelmRepository and HelmRelease of the driver. */
export function fluxDraDriverObjects(
  values: Record<string, unknown>,
  /** Where the repository keeps its Flux objects. */
  namespace: string,
): Record<string, unknown>[] {
  return [
    {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'HelmRepository',
      metadata: { name: HELM_REPOSITORY_NAME, namespace },
      spec: { type: 'oci', interval: '1h', url: DRA_DRIVER_REPO },
    },
    {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: DRA_DRIVER_CHART, namespace },
      spec: {
        interval: '1h',
        releaseName: DRA_DRIVER_CHART,
        targetNamespace: DRA_DRIVER_NAMESPACE,
        chart: {
          spec: {
            chart: DRA_DRIVER_CHART,
            version: DRA_DRIVER_CHART_VERSION,
            sourceRef: { kind: 'HelmRepository', name: HELM_REPOSITORY_NAME },
          },
        },
        // The chart ships the driver's CRDs (ComputeDomain); kept current on upgrade.
        install: { createNamespace: true, crds: 'CreateReplace' },
        upgrade: { crds: 'CreateReplace' },
        values,
      },
    },
  ];
}

/** The Argo CD Application of the driver. */
export function argoDraDriverApplication(
  values: Record<string, unknown>,
  /** Where the repository keeps its Argo CD Applications. */
  namespace: string,
): Record<string, unknown> {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: DRA_DRIVER_CHART, namespace },
    spec: {
      project: 'default',
      destination: {
        server: 'https://kubernetes.default.svc',
        namespace: DRA_DRIVER_NAMESPACE,
      },
      source: {
        repoURL: DRA_DRIVER_REPO.replace(/^oci:\/\//, ''),
        chart: DRA_DRIVER_CHART,
        targetRevision: DRA_DRIVER_CHART_VERSION,
        helm: { releaseName: DRA_DRIVER_CHART, valuesObject: values },
      },
      syncPolicy: { syncOptions: ['CreateNamespace=true'] },
    },
  };
}
