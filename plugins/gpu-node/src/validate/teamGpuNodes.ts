/**
 * GPU nodes no pool of the repository describes: on a static or Cluster API
 * cluster the team's own servers (or a flavor's own MachineDeployment) run
 * GPUs the product never provisioned, and a team's NodeFeatureRule may label
 * them (`gpu-class: a100` from the NVIDIA PCI device ids, gpu-common
 * `nfdGpuNodeClasses`). A workload selecting such a class may land there,
 * served by the cluster's GPU Operator: what those nodes advertise cannot be
 * told from the repository, so it is a note, never a finding. On Karpenter
 * every node comes from a NodePool, so nothing is set aside there.
 */
import { nfdGpuNodeClasses } from '@gpu-gitops/plugin-gpu-common';
import { getIn, stringRecord } from '../repo/yamlObjects';
import type { BuiltPool } from './builtPools';
import type { BuiltRoot } from './builtRoots';
import { podSpecOf, type GpuWorkload } from './builtWorkloads';

/**
 * The workloads the landing rules judge: all but those (pinned to no pool
 * of the product's, on a cluster without Karpenter) whose every nodeSelector
 * entry is a label a team's NFD GPU class puts on its nodes; for each of
 * those a note says where they land and that it was not checked.
 */
export function withoutTeamGpuNodeWorkloads(
  workloads: readonly GpuWorkload[],
  roots: readonly BuiltRoot[],
  pools: readonly BuiltPool[],
  notes: string[],
): GpuWorkload[] {
  if (pools.some(p => p.object.kind === 'NodePool')) return [...workloads];
  const classes = nfdGpuNodeClasses(roots.flatMap(r => r.objects));
  if (classes.length === 0) return [...workloads];
  const noted = new Set<string>();
  return workloads.filter(workload => {
    if (workload.pool) return true;
    const selector = stringRecord(
      getIn(podSpecOf(workload.object), 'nodeSelector'),
    );
    const entries = Object.entries(selector);
    if (entries.length === 0) return true;
    const gpuClass = classes.find(c =>
      entries.every(([key, value]) => c.labels[key] === value),
    );
    if (!gpuClass) return true;
    if (!noted.has(workload.id)) {
      noted.add(workload.id);
      notes.push(
        `${workload.object.kind}/${workload.object.metadata.name} selects ${entries
          .map(([k, v]) => `${k}=${v}`)
          .join(
            ', ',
          )}, the GPU nodes the team's NodeFeatureRule ${gpuClass.rule} labels; no pool in the repository describes them, so what they advertise and their taints were not checked`,
      );
    }
    return false;
  });
}
