/**
 * What the build of the workload a request gives GPUs to may differ in,
 * before and after the change: its GPU limits, requests and DRA claims, its
 * placement (node selector, tolerations) and replica count, as the plan
 * says; everything else of its pod template and spec stays as it was.
 */
import {
  BIN_PACKING_SCHEDULER_NAME,
  DRA_CLAIM_NAME,
  gpuSchedulerName,
  patchedSchedulerName,
  isNvidiaResource,
  podPlacement,
  poolNodeLabel,
  viewWorkload,
  workloadShape,
  type ClusterProfile,
  type Plan,
  type WorkloadKind,
  type WorkloadView,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize/build';
import { getIn } from '../repo/yamlObjects';
import { deepEqual } from './canonical';
import {
  NODE_SELECTION_FIELDS,
  nodeSelectionProblems,
} from './nodeSelectionCheck';

type Built = BuiltObject;

/** How a built object is named in a refusal. */
export function describeBuilt(o: Built): string {
  return `${o.kind} "${o.metadata.name}"${o.metadata.namespace ? ` in namespace "${String(o.metadata.namespace)}"` : ''}`;
}

/** Pod-spec fields a GPU request may change; everything else stays as it was. */
const POD_SPEC_OWNED = new Set([
  ...NODE_SELECTION_FIELDS,
  'tolerations',
  'containers',
  'resourceClaims',
  'schedulerName',
]);

function withoutKeys(value: unknown, keys: (k: string) => boolean): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(([k]) => !keys(k)),
  );
}

/** A container without what a GPU request owns: GPU limits and requests, DRA claims (and its image, for the product's own workload). */
function withoutGpuResources(
  container: Record<string, unknown>,
  withoutImage: boolean,
): Record<string, unknown> {
  const { resources, image, ...rest } = container;
  const kept: Record<string, unknown> = {};
  for (const key of ['limits', 'requests']) {
    const map = withoutKeys(getIn(resources, key), isNvidiaResource);
    if (map && Object.keys(map as object).length > 0) kept[key] = map;
  }
  for (const [key, value] of Object.entries(
    (resources as Record<string, unknown>) ?? {},
  )) {
    if (!['limits', 'requests', 'claims'].includes(key)) kept[key] = value;
  }
  return {
    ...rest,
    ...(withoutImage || image === undefined ? {} : { image }),
    ...(Object.keys(kept).length > 0 ? { resources: kept } : {}),
  };
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
  const problems: string[] = [];
  const shape = workloadShape(kind);
  const view = viewWorkload(kind, after);
  const placement = podPlacement(plan, cluster);
  const what = describeBuilt(after);
  const gpu = view.containers.find(c => c.name === container);
  if (!gpu) return [`${what} has no container "${container}" after the change`];
  if (!gpu.image)
    problems.push(`${what}: container "${container}" has no image`);
  const gpuLimits = Object.fromEntries(
    Object.entries(gpu.limits)
      .filter(([k]) => isNvidiaResource(k))
      .map(([k, v]) => [k, String(v)]),
  );
  if (!deepEqual(gpuLimits, placement.limits)) {
    problems.push(
      `${what}: container "${container}" asks for ${JSON.stringify(gpuLimits)}, the plan says ${JSON.stringify(placement.limits)}`,
    );
  }
  if (view.replicas !== plan.request.spec.gpu.replicas) {
    problems.push(
      `${what}: ${shape.replicasField} is ${view.replicas}, the request asks for ${plan.request.spec.gpu.replicas}`,
    );
  }
  if (view.nodeSelector[poolNodeLabel(cluster)] !== plan.pool.name) {
    problems.push(
      `${what} is not placed on pool ${plan.pool.name} (nodeSelector ${poolNodeLabel(cluster)})`,
    );
  }
  problems.push(
    ...schedulerProblems(
      what,
      before && viewWorkload(kind, before),
      view,
      cluster,
    ),
  );
  if (!before) return problems;

  // Everything the request does not own is as it was.
  const old = viewWorkload(kind, before);
  if (
    old.containers.map(c => c.name).join() !==
    view.containers.map(c => c.name).join()
  ) {
    problems.push(
      `${what}: its containers changed from ${old.containers.map(c => c.name).join(', ')} to ${view.containers.map(c => c.name).join(', ')}`,
    );
  }
  const beforeTemplate = getIn(before, ...shape.podTemplate);
  const afterTemplate = getIn(after, ...shape.podTemplate);
  const containersOf = (template: unknown) =>
    (getIn(template, 'spec', 'containers') as Record<string, unknown>[]) ?? [];
  for (const c of containersOf(beforeTemplate)) {
    const next = containersOf(afterTemplate).find(n => n.name === c.name);
    if (!next) continue;
    const strip = (x: Record<string, unknown>) =>
      c.name === container ? withoutGpuResources(x, imageMayChange) : x;
    if (!deepEqual(strip(c), strip(next))) {
      problems.push(
        c.name === container
          ? `${what}: container "${c.name}" changed beyond its GPU resources`
          : `${what}: container "${c.name}" changed, though it does not get the GPU`,
      );
    }
  }
  const podRest = (template: unknown) =>
    withoutKeys(getIn(template, 'spec'), k => POD_SPEC_OWNED.has(k));
  if (!deepEqual(podRest(beforeTemplate), podRest(afterTemplate))) {
    problems.push(`${what}: its pod spec changed beyond the GPU placement`);
  }
  problems.push(...changedOwnClaims(old, view, container, what));
  problems.push(
    ...nodeSelectionProblems(
      what,
      old,
      view,
      {
        before: getIn(beforeTemplate, 'spec'),
        after: getIn(afterTemplate, 'spec'),
      },
      plan,
      cluster,
    ),
  );
  for (const t of old.tolerations) {
    if (
      !view.tolerations.some(n => deepEqual(n, t)) &&
      t.key !== cluster.gpuTaintKey
    ) {
      problems.push(`${what}: toleration ${JSON.stringify(t)} was dropped`);
    }
  }
  const top = (o: Built) =>
    withoutKeys(
      {
        ...o,
        metadata: withoutKeys(
          o.metadata,
          k => k === 'labels' || k === 'annotations',
        ),
      },
      k => k === 'spec',
    );
  if (!deepEqual(top(before), top(after))) {
    problems.push(
      `${what}: its metadata changed beyond labels and annotations`,
    );
  }
  const specRest = (o: Built) =>
    withoutKeys(getIn(o, 'spec'), k =>
      ['replicas', 'parallelism', 'template', 'jobTemplate'].includes(k),
    );
  if (!deepEqual(specRest(before), specRest(after))) {
    problems.push(`${what}: its spec changed beyond the GPU fields`);
  }
  return problems;
}

/**
 * The workload's own DRA claims (the pod's `resourceClaims`, the GPU
 * container's `claims`; not the request's) stay, in their order: Kustomize
 * replaces these lists whole (the Kubernetes v1.21.2 OpenAPI it embeds does
 * not know them), so a patch carrying only the request's claim drops them.
 */
function changedOwnClaims(
  old: WorkloadView,
  view: WorkloadView,
  container: string,
  what: string,
): string[] {
  const own = (claims: Record<string, unknown>[] | undefined) =>
    (claims ?? []).map(c => String(c.name)).filter(n => n !== DRA_CLAIM_NAME);
  const claimsOf = (v: WorkloadView) =>
    v.containers.find(c => c.name === container)?.claims;
  const lists: [string, string[], string[]][] = [
    ['pod resource claims', own(old.resourceClaims), own(view.resourceClaims)],
    [
      `container "${container}" claims`,
      own(claimsOf(old)),
      own(claimsOf(view)),
    ],
  ];
  return lists
    .filter(([, before, after]) => before.join() !== after.join())
    .map(
      ([label, before, after]) =>
        `${what}: its ${label} changed from ${before.join(', ') || 'none'} to ${after.join(', ') || 'none'}`,
    );
}
