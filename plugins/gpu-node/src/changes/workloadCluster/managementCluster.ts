/**
 * Whether a cluster's folder is what a Cluster API *management* cluster
 * applies: it declares the workload cluster itself (a `cluster.x-k8s.io`
 * `Cluster` of the profile's Cluster API cluster name). There the GPU
 * folder's pools (MachineDeployment and templates) are the management
 * cluster's objects, while the device plugin and the MIG manager read their
 * ConfigMaps in the workload cluster: those must be delivered
 * (`gpuConfigsDelivery.ts`).
 */
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { readDocuments } from '../../repo/readDocuments';
import type { RepoTree } from '../../repo/tree';
import { topologyClassName } from '../../repo/topologyMachineDeployments';
import { getIn } from '../../repo/yamlObjects';

/** The workload cluster as its management repository declares it. */
export interface WorkloadCluster {
  name: string;
  namespace: string;
  /** Its labels as built: a kustomize patch of the Cluster counts too. */
  labels: Record<string, string>;
  /** The Cluster's API version (`v1beta1`, `v1beta2`): add-ons follow it. */
  version: string;
  /** The ClusterClass whose topology manages it (`spec.topology`), if one does. */
  topologyClass?: string;
}

const CLUSTER_GROUP = 'cluster.x-k8s.io/';

/** The workload cluster a folder declares, or undefined when none (not a management repository). */
export async function workloadClusterIn(
  tree: RepoTree,
  folder: string,
  cluster: ClusterProfile,
): Promise<WorkloadCluster | undefined> {
  const name = cluster.clusterApi?.clusterName ?? cluster.name;
  // Parsing the folder is for Cluster API clusters only.
  if (!cluster.clusterApi) return undefined;
  const documents = (await readDocuments(tree, folder, [])).filter(
    d =>
      getIn(d.value, 'kind') === 'Cluster' &&
      String(getIn(d.value, 'apiVersion')).startsWith(CLUSTER_GROUP) &&
      getIn(d.value, 'metadata', 'name') === name,
  );
  // The declaration has a spec; a patch of it (labels only) may not.
  const declared =
    documents.find(d => getIn(d.value, 'spec') !== undefined) ?? documents[0];
  if (!declared) return undefined;
  const labels: Record<string, string> = {};
  for (const d of documents) {
    const own = getIn(d.value, 'metadata', 'labels');
    if (own && typeof own === 'object') {
      for (const [k, v] of Object.entries(own)) labels[k] = String(v);
    }
  }
  const topologyClass = topologyClassName(declared.value);
  return {
    ...(typeof topologyClass === 'string' ? { topologyClass } : {}),
    name,
    namespace: String(
      getIn(declared.value, 'metadata', 'namespace') ??
        cluster.clusterApi.namespace ??
        'default',
    ),
    labels,
    version: String(getIn(declared.value, 'apiVersion')).slice(
      CLUSTER_GROUP.length,
    ),
  };
}
