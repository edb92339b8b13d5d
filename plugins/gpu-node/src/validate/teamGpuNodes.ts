/**
 * GPU nodes no pool of the repository describes: on a static or Cluster API
 * cluster the team's own servers (or a flavor's own MachineDeployment) run
 * GPUs the product never provisioned, and a team's NodeFeatureRule may label
 * them (`gpu-class: a100` from the NVIDIA PCI device ids). The landing model
 * holds them beside the pools (gpu-common `clusterLandingModel`): a workload
 * whose pods may land there (it selects such a class, a label every GPU node
 * carries, or no node at all) is served by the cluster's GPU Operator; what
 * those nodes advertise cannot be told from the repository, so it is a note,
 * never a finding. Where Karpenter launches every node from a NodePool,
 * nothing is set aside.
 */
import {
  clusterLandingModel,
  landingPools,
  podSchedulingOf,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltPool } from './builtPools';
import type { BuiltRoot } from './builtRoots';
import { podSpecOf, type GpuWorkload } from './builtWorkloads';

/** What a workload's pods choose their nodes by, in the note's words. */
function choiceText(nodeSelector: Record<string, string>): string {
  const entries = Object.entries(nodeSelector);
  return entries.length === 0
    ? 'selects no node'
    : `selects ${entries.map(([k, v]) => `${k}=${v}`).join(', ')}`;
}

/**
 * The workloads the landing rules judge: all but those (pinned to no pool
 * of the product's, on a cluster without Karpenter) whose pods may land on
 * the GPU nodes a team's NFD GPU class labels; for each of those a note says
 * where they land and that it was not checked. `karpenter`: whether the
 * cluster's provider launches its nodes with Karpenter (the profile's, with
 * `--cluster`); unknown, a NodePool among the built pools says so.
 */
export function withoutTeamGpuNodeWorkloads(
  workloads: readonly GpuWorkload[],
  roots: readonly BuiltRoot[],
  pools: readonly BuiltPool[],
  notes: string[],
  karpenter: boolean = pools.some(p => p.object.kind === 'NodePool'),
): GpuWorkload[] {
  if (karpenter) return [...workloads];
  // The readers' one model, without pools: only the team's GPU nodes.
  const teamNodes = clusterLandingModel({
    pools: [],
    objects: roots.flatMap(r => r.objects),
  }).shapes;
  if (teamNodes.length === 0) return [...workloads];
  const noted = new Set<string>();
  return workloads.filter(workload => {
    if (workload.pool) return true;
    const pod = podSchedulingOf(podSpecOf(workload.object));
    const landed = landingPools(pod, teamNodes).pools;
    if (landed.length === 0) return true;
    if (!noted.has(workload.id)) {
      noted.add(workload.id);
      notes.push(
        `${workload.object.kind}/${workload.object.metadata.name} ${choiceText(pod.nodeSelector)}: its pods may land on the GPU nodes the team's NodeFeatureRule ${landed.join(', ')} labels; no pool in the repository describes them, so what they advertise and their taints were not checked`,
      );
    }
    return false;
  });
}
