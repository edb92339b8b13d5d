/**
 * The bootstrap's GPU Operator release on a Cluster API management
 * repository: the operator runs on the GPU nodes, which only the workload
 * cluster has, so the management cluster installs it there the way Cluster
 * API repositories install add-ons, with a Cluster API add-on provider Helm
 * (CAAPH) `HelmChartProxy` selecting the workload Cluster by its labels
 * (kubernetes-sigs/cluster-api-addon-provider-helm v0.6.4
 * `api/v1alpha1/helmchartproxy_types.go`; CAPZ v1.26.0 installs its GPU
 * clusters' operator so: `templates/addons/cluster-api-helm/gpu-operator.yaml`).
 * The proxy is made from the release the bootstrap writes elsewhere (its
 * kustomize `helmCharts` entry and its values), and is that release: the
 * values are its `valuesTemplate`, read back by `helmChartProxyRelease`, so
 * the folder of the kustomize release is not written. An add-on chart
 * (NVIDIA's DRA driver, Kueue: `addOnChart.ts`) comes the same way, from
 * its chart and values (`chartProxyFile`).
 */
import { posix } from 'node:path';
import { parse } from 'yaml';
import { MANAGED_BY, WELL_KNOWN_KEYS } from '@gpu-gitops/plugin-gpu-common';
import { getIn } from '../../repo/yamlObjects';
import {
  bootstrapDocuments,
  type BootstrapFileWrite,
} from '../bootstrap/bootstrapFile';
import type { WorkloadCluster } from './managementCluster';

const API_VERSION = 'addons.cluster.x-k8s.io/v1alpha1';

/** The proxy's file in the GPU folder, which the management cluster applies. */
export const helmChartProxyPath = (
  gpuKustomizationPath: string,
  chart: string,
) =>
  posix.join(
    posix.dirname(gpuKustomizationPath),
    `${chart}-helmchartproxy.yaml`,
  );

/** A chart release as a HelmChartProxy names it. */
export interface ProxiedChart {
  /** The chart's name, and the proxy's. */
  name: string;
  /** CAAPH pulls `<repoURL>/<name>`: an https Helm repository or an `oci://` one. */
  repoURL: string;
  version: string;
  releaseName: string;
  /** The namespace the release installs into on the workload cluster. */
  namespace: string;
  /** The Helm values, as text (CAAPH renders it as a Go template against the Cluster). */
  valuesTemplate: string;
}

/** The HelmChartProxy file that installs `chart` on the workload cluster, in the GPU folder. */
export function chartProxyFile(
  chart: ProxiedChart,
  workload: WorkloadCluster,
  gpuKustomizationPath: string,
  /** What the team can do when a file the bootstrap did not write is in its place. */
  remedy: string,
): BootstrapFileWrite {
  const proxy = {
    apiVersion: API_VERSION,
    kind: 'HelmChartProxy',
    metadata: {
      name: chart.name,
      namespace: workload.namespace,
      labels: { [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY },
    },
    spec: {
      // CAAPH installs on the selected Clusters of the proxy's namespace.
      clusterSelector: { matchLabels: workload.labels },
      repoURL: chart.repoURL,
      chartName: chart.name,
      version: chart.version,
      releaseName: chart.releaseName,
      namespace: chart.namespace,
      options: { install: { createNamespace: true } },
      valuesTemplate: chart.valuesTemplate,
    },
  };
  return {
    path: helmChartProxyPath(gpuKustomizationPath, chart.name),
    content: bootstrapDocuments(
      [proxy],
      `The ${chart.name} release for the workload cluster ${workload.name}: the Cluster API add-on provider Helm installs it on every Cluster of namespace ${workload.namespace} with these labels.`,
    ),
    what: `the HelmChartProxy that installs ${chart.name} on the workload cluster \`${workload.name}\``,
    remedy,
  };
}

/**
 * The HelmChartProxy file for the kustomize release `files` hold (its
 * kustomization with one `helmCharts` entry, and the values file it names);
 * undefined when they hold no such release.
 */
export function helmChartProxyFile(
  files: readonly BootstrapFileWrite[],
  workload: WorkloadCluster,
  gpuKustomizationPath: string,
): BootstrapFileWrite | undefined {
  const kustomization = files.find(f => f.path.endsWith('/kustomization.yaml'));
  const chart = getIn(parse(kustomization?.content ?? ''), 'helmCharts', 0);
  if (!kustomization || !chart) return undefined;
  const valuesFile = posix.join(
    posix.dirname(kustomization.path),
    String(getIn(chart, 'valuesFile') ?? 'values.yaml'),
  );
  const name = String(getIn(chart, 'name'));
  return chartProxyFile(
    {
      name,
      repoURL: getIn(chart, 'repo') as string,
      version: getIn(chart, 'version') as string,
      releaseName: (getIn(chart, 'releaseName') as string) ?? name,
      namespace: getIn(chart, 'namespace') as string,
      valuesTemplate: files.find(f => f.path === valuesFile)?.content ?? '',
    },
    workload,
    gpuKustomizationPath,
    kustomization.remedy,
  );
}
