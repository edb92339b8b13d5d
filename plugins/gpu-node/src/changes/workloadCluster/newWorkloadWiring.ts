/**
 * A new GPU workload on a Cluster API management repository. Its folder
 * (`apps/<namespace>/<component>/`, a kustomize root of its own) must run
 * in the workload cluster: the management cluster, which applies the
 * cluster's folder, has no GPU nodes. The product does not deliver it with
 * a ClusterResourceSet as it does the GPU ConfigMaps: platform teams keep
 * ClusterResourceSets and HelmChartProxies for a cluster's add-ons, and
 * their apps on the GitOps agent that syncs the workload cluster; and a
 * ClusterResourceSet never deletes what it applied once a resource leaves
 * it (cluster-api v1.14.0 `docs/book/src/tasks/experimental-features/
 * cluster-resource-set.md`), so a release would leave the GPU pods running.
 * So the request goes ahead, and its pull request says exactly what the
 * platform team wires to apply that folder to the workload cluster.
 */
import type { ClusterProfile, Plan } from '@gpu-gitops/plugin-gpu-common';
import { clusterScopePath, type LayoutInput } from '../../layout/layout';
import type { RepoTree } from '../../repo/tree';
import { workloadClusterIn } from './managementCluster';

/** The plan with the wiring to do, on a management repository; as it was elsewhere. */
export async function withWorkloadClusterWiring(
  tree: RepoTree,
  layout: LayoutInput,
  cluster: ClusterProfile,
  plan: Plan,
  workloadFolder: string,
): Promise<Plan> {
  const clusterFolder = clusterScopePath(layout, cluster.name);
  const workload = await workloadClusterIn(tree, clusterFolder, cluster);
  if (!workload) return plan;
  const warning = `\`${clusterFolder}/\` is applied to the Cluster API management cluster, which has no GPU nodes: the new workload \`${workloadFolder}/\` must be applied to the workload cluster \`${workload.name}\`. Make sure what syncs that cluster applies it, e.g. an Argo CD Application with \`spec.source.path: ${workloadFolder}\` and \`spec.destination.name: ${workload.name}\` (the workload cluster registered in Argo CD), or a Flux Kustomization in namespace \`${workload.namespace}\` with \`spec.path: ./${workloadFolder}\` and \`spec.kubeConfig.secretRef.name: ${workload.name}-kubeconfig\` (the kubeconfig Secret Cluster API writes beside the Cluster). Its release removes the folder, and the agent then prunes the workload.`;
  return { ...plan, warnings: [...plan.warnings, warning] };
}
