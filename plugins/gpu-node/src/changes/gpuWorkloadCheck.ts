/**
 * What the build of the workload a request gives GPUs to may differ in,
 * before and after the change: its GPU limits, requests and DRA claims, its
 * placement (node selector, tolerations) and replica count, as the plan
 * says; everything else of its pod template and spec stays as it was
 * (`unownedFieldsCheck.ts`).
 */
import {
  BIN_PACKING_SCHEDULER_NAME,
  gpuSchedulerName,
  patchedSchedulerName,
  isNvidiaResource,
  podPlacement,
  poolNodeLabel,
  viewWorkload,
  workloadShape,
  type ClusterProfile,
  type ContainerView,
  type Plan,
  type WorkloadKind,
  type WorkloadView,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize/build';
import { deepEqual } from './canonical';
import { unownedFieldProblems } from './unownedFieldsCheck';

type Built = BuiltObject;

/** How a built object is named in a refusal. */
export function describeBuilt(o: Built): string {
  return `${o.kind} "${o.metadata.name}"${o.metadata.namespace ? ` in namespace "${String(o.metadata.namespace)}"` : ''}`;
}

/** The GPU container has an image and exactly the plan's GPU limits. */
function gpuContainerProblems(
  what: string,
  gpu: ContainerView,
  plannedLimits: Record<string, string>,
): string[] {
  const problems: string[] = [];
  if (!gpu.image)
    problems.push(`${what}: container "${gpu.name}" has no image`);
  const gpuLimits = Object.fromEntries(
    Object.entries(gpu.limits)
      .filter(([k]) => isNvidiaResource(k))
      .map(([k, v]) => [k, String(v)]),
  );
  if (!deepEqual(gpuLimits, plannedLimits)) {
    problems.push(
      `${what}: container "${gpu.name}" asks for ${JSON.stringify(gpuLimits)}, the plan says ${JSON.stringify(plannedLimits)}`,
    );
  }
  return problems;
}

/** The workload runs the requested replicas, on the plan's pool. */
function placementProblems(
  what: string,
  view: WorkloadView,
  replicasField: string,
  plan: Plan,
  cluster: ClusterProfile,
): string[] {
  const problems: string[] = [];
  if (view.replicas !== plan.request.spec.gpu.replicas) {
    problems.push(
      `${what}: ${replicasField} is ${view.replicas}, the request asks for ${plan.request.spec.gpu.replicas}`,
    );
  }
  if (view.nodeSelector[poolNodeLabel(cluster)] !== plan.pool.name) {
    problems.push(
      `${what} is not placed on pool ${plan.pool.name} (nodeSelector ${poolNodeLabel(cluster)})`,
    );
  }
  return problems;
}

/**
 * The scheduler of the workload's pods after the change is the one the
 * cluster profile says (gpu-common `binPackingScheduler.ts`): a new
 * workload's, or the patch's in place of the default one; a scheduler of
 * the team's own stays. A build that names the bin-packing scheduler
 * already is an earlier render of ours, which the patch decides again.
 */
function schedulerProblems(
  what: string,
  old: WorkloadView | undefined,
  view: WorkloadView,
  cluster: ClusterProfile,
): string[] {
  if (old?.schedulerName === BIN_PACKING_SCHEDULER_NAME) return [];
  const expected = old
    ? (patchedSchedulerName(cluster, old.schedulerName) ?? old.schedulerName)
    : gpuSchedulerName(cluster);
  if (view.schedulerName === expected) return [];
  const name = (scheduler: string | undefined) =>
    scheduler ? `scheduler "${scheduler}"` : 'the default scheduler';
  return [
    `${what} runs with ${name(view.schedulerName)}, the cluster profile's binPacking says ${name(expected)}`,
  ];
}

/** What may differ in the workload the request gives GPUs to; returns the problems. */
export function checkGpuWorkload(
  before: Built | undefined,
  after: Built,
  plan: Plan,
  cluster: ClusterProfile,
  kind: WorkloadKind,
  container: string,
  imageMayChange: boolean,
): string[] {
  const view = viewWorkload(kind, after);
  const what = describeBuilt(after);
  const gpu = view.containers.find(c => c.name === container);
  if (!gpu) return [`${what} has no container "${container}" after the change`];
  const old = before && viewWorkload(kind, before);
  const problems = [
    ...gpuContainerProblems(what, gpu, podPlacement(plan, cluster).limits),
    ...placementProblems(
      what,
      view,
      workloadShape(kind).replicasField,
      plan,
      cluster,
    ),
    ...schedulerProblems(what, old, view, cluster),
  ];
  if (!before || !old) return problems;
  return [
    ...problems,
    ...unownedFieldProblems(
      { before, after, old, view },
      { kind, container, imageMayChange, what },
      plan,
      cluster,
    ),
  ];
}
