/**
 * A new GPU pool on a Cluster API cluster whose workers its ClusterClass's
 * managed topology owns (`spec.topology.workers.machineDeployments`). A
 * MachineDeployment written beside the topology is not one of its workers:
 * the topology controller neither upgrades it with the cluster's version nor
 * lists it, and a platform team running ClusterClass keeps every worker in
 * the topology (Cluster API v1.11 book, "Writing a ClusterClass": workers
 * are MachineDeploymentClasses instantiated by topology entries). Adding a
 * worker class to the team's ClusterClass and an entry to its Cluster would
 * change two files the product does not manage, so the request is refused
 * with exactly what to add; once added, the import adopts the entry
 * (`import/adoptTopologyEntry.ts`) and requests reuse it in place
 * (`changes/topologyEntryDocument.ts`).
 */
import {
  GpuInputError,
  type ClusterProfile,
  type KubernetesObject,
  type ManifestSet,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import { clusterScopePath, type LayoutInput } from '../../layout/layout';
import {
  machineTypeOf,
  MACHINE_DEPLOYMENT,
  nodeRegistrationLabels,
  nodeRegistrationTaints,
  templatesOf,
} from '../../repo/machineDeploymentPools';
import type { RepoTree } from '../../repo/tree';
import { getIn } from '../../repo/yamlObjects';
import { workloadClusterIn } from './managementCluster';

/** `key=value:Effect` of each taint kubelet registers the nodes with. */
function taintsText(bootstrap: unknown): string[] {
  const taints = nodeRegistrationTaints(bootstrap);
  return (Array.isArray(taints) ? taints : []).map(
    t =>
      `${getIn(t, 'key')}${getIn(t, 'value') === undefined ? '' : `=${getIn(t, 'value')}`}:${getIn(t, 'effect')}`,
  );
}

/** What the team adds to its ClusterClass and Cluster for the pool `objects` describe. */
function whatToAdd(
  objects: KubernetesObject[],
  clusterName: string,
  className: string,
): string {
  const deployment = objects.find(o => o.kind === MACHINE_DEPLOYMENT)!;
  const { bootstrap, infrastructure } = templatesOf(deployment, objects);
  const labels = Object.entries(nodeRegistrationLabels(bootstrap))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const taints = taintsText(bootstrap);
  const name = deployment.metadata.name;
  const replicas = getIn(deployment, 'spec', 'replicas');
  return [
    `to ClusterClass "${className}" a worker class in \`spec.workers.machineDeployments\` whose infrastructure template is a ${getIn(infrastructure, 'kind')} of machine \`${machineTypeOf(infrastructure)}\``,
    ` and whose bootstrap template registers its nodes with \`node-labels\` \`${labels}\``,
    taints.length > 0
      ? ` and the taint${taints.length > 1 ? 's' : ''} \`${taints.join('`, `')}\``
      : '',
    `; and to Cluster "${clusterName}" the entry \`{class: <that class>, name: ${name}, replicas: ${replicas}}\` in \`spec.topology.workers.machineDeployments\`; then \`import\` adopts the entry (its pool annotations go on it) and requests reuse it`,
  ].join('');
}

/** Refuses a new MachineDeployment pool beside a managed topology, saying what to add to it. */
export async function refuseNewPoolBesideTopology(
  tree: RepoTree,
  layout: LayoutInput,
  cluster: ClusterProfile,
  plan: Plan,
  manifests: ManifestSet,
): Promise<void> {
  if (plan.pool.reused || !cluster.clusterApi) return;
  const folder = clusterScopePath(layout, cluster.name);
  const workload = await workloadClusterIn(tree, folder, cluster);
  if (!workload?.topologyClass) return;
  throw new GpuInputError([
    {
      path: 'spec.cluster',
      rule: 'cluster-managed-topology',
      message: `Cluster "${workload.name}" is managed by its ClusterClass "${workload.topologyClass}" (\`spec.topology\` in ${folder}/): the new pool ${manifests.pool.name} would be a MachineDeployment outside that topology, which Cluster API never upgrades with the cluster, so none is written. Add the pool to the topology: ${whatToAdd(manifests.pool.objects, workload.name, workload.topologyClass)}. Nothing was written.`,
    },
  ]);
}
