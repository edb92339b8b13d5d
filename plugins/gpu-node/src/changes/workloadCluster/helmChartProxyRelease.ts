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
 * the folder of the kustomize release is not written.
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
  const values = files.find(f => f.path === valuesFile)?.content ?? '';
  const name = String(getIn(chart, 'name'));
  const proxy = {
    apiVersion: API_VERSION,
    kind: 'HelmChartProxy',
    metadata: {
      name,
      namespace: workload.namespace,
      labels: { [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY },
    },
    spec: {
      // CAAPH installs on the selected Clusters of the proxy's namespace.
      clusterSelector: { matchLabels: workload.labels },
      repoURL: getIn(chart, 'repo'),
      chartName: name,
      version: getIn(chart, 'version'),
      releaseName: getIn(chart, 'releaseName') ?? name,
      namespace: getIn(chart, 'namespace'),
      options: { install: { createNamespace: true } },
      valuesTemplate: values,
    },
  };
  return {
    path: helmChartProxyPath(gpuKustomizationPath, name),
    content: bootstrapDocuments(
      [proxy],
      `The ${name} release for the workload cluster ${workload.name}: the Cluster API add-on provider Helm installs it on every Cluster of namespace ${workload.namespace} with these labels.`,
    ),
    what: `the HelmChartProxy that installs ${name} on the workload cluster \`${workload.name}\``,
    remedy: kustomization.remedy,
  };
}
