/**
 * The bootstrap's own chart releases (the GPU Operator's, NVIDIA's DRA
 * driver's) on a Cluster API management repository: they install on the
 * GPU nodes, which only the workload cluster has, so they are never wired
 * into what the management cluster applies (its Flux or Argo CD would
 * install them there). Where the Cluster has labels, a HelmChartProxy the
 * bootstrap writes installs them (`helmChartProxyRelease.ts`); where it has
 * none, the notes say how the workload cluster gets them, the way such
 * repositories install add-ons: a Cluster API add-on provider
 * Helm `HelmChartProxy` selecting the Cluster (kubernetes-sigs/
 * cluster-api-addon-provider-helm, as CAPZ's GPU flavor installs the GPU
 * Operator), or the GitOps agent that syncs the workload cluster.
 */
import type { GpuFolder } from '../bootstrap/wiring/wireGpuFolders';
import type { WorkloadCluster } from './managementCluster';

/** The folders the management cluster applies, and the workload cluster's. */
export function splitByCluster(
  folders: GpuFolder[],
  gpuFolder: string,
  workload: WorkloadCluster | undefined,
): { management: GpuFolder[]; workload: GpuFolder[] } {
  if (!workload) return { management: folders, workload: [] };
  return {
    management: folders.filter(f => f.folder === gpuFolder),
    workload: folders.filter(f => f.folder !== gpuFolder),
  };
}

export function workloadClusterReleaseNotes(
  folders: GpuFolder[],
  workload: WorkloadCluster | undefined,
  clusterFolder: string,
): string[] {
  if (!workload) return [];
  const selector = Object.entries(workload.labels)
    .map(([k, v]) => `\`${k}: ${v}\``)
    .join(', ');
  return folders.map(
    f =>
      `**To do**: ${f.what} \`${f.folder}/\` is for the workload cluster \`${workload.name}\`, not for the Cluster API management cluster that applies \`${clusterFolder}/\` (it has no GPU nodes), so it is not listed there. Install it on the workload cluster: a HelmChartProxy (Cluster API add-on provider Helm) with the chart and values of \`${f.folder}/\`${selector ? ` and \`spec.clusterSelector.matchLabels\` ${selector}` : ' selecting the Cluster by a label you give it'}, or point what syncs the workload cluster at \`${f.folder}/\`${f.helm ? ' (built with `--enable-helm`)' : ''}.`,
  );
}
