/**
 * What a GPU request does not own in the workload it gives GPUs to stays
 * as it was after the change: its containers (the GPU container beyond its
 * GPU resources), its pod spec beyond the GPU placement, its own DRA claims,
 * its node selection and tolerations, its metadata beyond labels and
 * annotations and its spec beyond the GPU fields (`gpuWorkloadCheck.ts`
 * judges those).
 */
import {
  DRA_CLAIM_NAME,
  isNvidiaResource,
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

/** The workload built before and after the change, and read through its shape. */
export interface WorkloadBuilds {
  before: Built;
  after: Built;
  old: WorkloadView;
  view: WorkloadView;
}

/** The container that gets the GPU, and how the workload is named in a refusal. */
export interface GpuContainer {
  kind: WorkloadKind;
  container: string;
  /** The product's own workload: its image is the request's. */
  imageMayChange: boolean;
  what: string;
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

/** Everything the request does not own is as it was; returns the problems. */
export function unownedFieldProblems(
  builds: WorkloadBuilds,
  gpu: GpuContainer,
  plan: Plan,
  cluster: ClusterProfile,
): string[] {
  const { before, after, old, view } = builds;
  const shape = workloadShape(gpu.kind);
  const templates = {
    before: getIn(before, ...shape.podTemplate),
    after: getIn(after, ...shape.podTemplate),
  };
  return [
    ...containerProblems(builds, templates, gpu),
    ...podSpecProblems(templates, gpu.what),
    ...changedOwnClaims(old, view, gpu.container, gpu.what),
    ...nodeSelectionProblems(
      gpu.what,
      old,
      view,
      {
        before: getIn(templates.before, 'spec'),
        after: getIn(templates.after, 'spec'),
      },
      plan,
      cluster,
    ),
    ...droppedTolerations(old, view, cluster, gpu.what),
    ...objectProblems(before, after, gpu.what),
  ];
}

type PodTemplates = { before: unknown; after: unknown };

/** The same containers, each as it was (the GPU container beyond its GPU resources). */
function containerProblems(
  builds: WorkloadBuilds,
  templates: PodTemplates,
  gpu: GpuContainer,
): string[] {
  const { old, view } = builds;
  const { container, what } = gpu;
  const problems: string[] = [];
  const names = (v: WorkloadView) => v.containers.map(c => c.name);
  if (names(old).join() !== names(view).join()) {
    problems.push(
      `${what}: its containers changed from ${names(old).join(', ')} to ${names(view).join(', ')}`,
    );
  }
  const containersOf = (template: unknown) =>
    (getIn(template, 'spec', 'containers') as Record<string, unknown>[]) ?? [];
  for (const c of containersOf(templates.before)) {
    const next = containersOf(templates.after).find(n => n.name === c.name);
    if (!next) continue;
    const strip = (x: Record<string, unknown>) =>
      c.name === container ? withoutGpuResources(x, gpu.imageMayChange) : x;
    if (!deepEqual(strip(c), strip(next))) {
      problems.push(
        c.name === container
          ? `${what}: container "${c.name}" changed beyond its GPU resources`
          : `${what}: container "${c.name}" changed, though it does not get the GPU`,
      );
    }
  }
  return problems;
}

/** The pod spec beyond what a GPU request owns (`POD_SPEC_OWNED`) is as it was. */
function podSpecProblems(templates: PodTemplates, what: string): string[] {
  const podRest = (template: unknown) =>
    withoutKeys(getIn(template, 'spec'), k => POD_SPEC_OWNED.has(k));
  return deepEqual(podRest(templates.before), podRest(templates.after))
    ? []
    : [`${what}: its pod spec changed beyond the GPU placement`];
}

/** Every toleration the workload had stays, but the one of the cluster's GPU taint. */
function droppedTolerations(
  old: WorkloadView,
  view: WorkloadView,
  cluster: ClusterProfile,
  what: string,
): string[] {
  return old.tolerations
    .filter(
      t =>
        !view.tolerations.some(n => deepEqual(n, t)) &&
        t.key !== cluster.gpuTaintKey,
    )
    .map(t => `${what}: toleration ${JSON.stringify(t)} was dropped`);
}

/** The object's metadata beyond labels and annotations, and its spec beyond the GPU fields, are as they were. */
function objectProblems(before: Built, after: Built, what: string): string[] {
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
  const specRest = (o: Built) =>
    withoutKeys(getIn(o, 'spec'), k =>
      ['replicas', 'parallelism', 'template', 'jobTemplate'].includes(k),
    );
  return [
    ...(deepEqual(top(before), top(after))
      ? []
      : [`${what}: its metadata changed beyond labels and annotations`]),
    ...(deepEqual(specRest(before), specRest(after))
      ? []
      : [`${what}: its spec changed beyond the GPU fields`]),
  ];
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
