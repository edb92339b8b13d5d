/**
 * A GPU workload's replica count as its folder deploys it. gpu-node's
 * `parseWorkloads` reads documents one by one and takes the first count a
 * document of the workload states; a team's patch to 2 over a manifest's 3
 * (or a kustomization's `replicas:` entry) runs 2, which is what the
 * workload objects of the same folder (workloadObjects.ts: the patches in
 * kustomize's order, then `replicas:`) read. The card, the tab, the GPU page
 * and the quota count the pods that run, the count the change's form and
 * diff show (issue 28: "the body says replicas 3 → 1 while the form said 2").
 */
import type {
  RepositoryWorkload,
  WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';

/**
 * `workload` with the replicas its folder's `objects` deploy it with; as read
 * when no object is it, or when overlays deploy it with different counts.
 *
 * @public
 */
export function withDeployedReplicas(
  workload: WorkloadState,
  objects: readonly RepositoryWorkload[],
): WorkloadState {
  const counts = new Set(
    objects
      .filter(
        o => o.name === workload.name && o.namespace === workload.namespace,
      )
      .map(o => o.replicas),
  );
  if (counts.size !== 1) return workload;
  const [replicas] = counts;
  return replicas === workload.replicas ? workload : { ...workload, replicas };
}
