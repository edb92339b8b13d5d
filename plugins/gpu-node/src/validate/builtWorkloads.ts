import {
  isWorkloadKind,
  type PodToleration,
  workloadShape,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize';
import { isGpuResourceName } from '../repo/poolLabels';
import { getIn, isPlainObject, parseCount } from '../repo/yamlObjects';
import type { BuiltRoot } from './builtRoots';
import { pinnedPool } from './workloadPool';

/**
 * Where kinds no request targets keep their pod template (a Pod is its own);
 * the request's kinds keep theirs where gpu-common `workloadShape` says.
 */
const OTHER_POD_TEMPLATES: Record<string, readonly string[]> = {
  DaemonSet: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  Pod: [],
};

function podTemplatePath(kind: unknown): readonly string[] | undefined {
  if (isWorkloadKind(kind)) return workloadShape(kind).podTemplate;
  return typeof kind === 'string' ? OTHER_POD_TEMPLATES[kind] : undefined;
}

/**
 * Where a kind says how many pods run at once (gpu-common `workloadShape`,
 * defaulting to 1 like the API server). Kinds that do not size a pool
 * (DaemonSet: one per node; a bare Pod) have none.
 */
function concurrentPodsPath(kind: unknown): readonly string[] | undefined {
  return isWorkloadKind(kind) ? workloadShape(kind).replicas : undefined;
}

export interface GpuContainer {
  name: string;
  image?: string;
  /** GPU resources (`nvidia.com/*`) of `resources.limits`, as counts. */
  limits: Record<string, number>;
  /** Asks for a device through a DRA claim (`resources.claims`). */
  claims: boolean;
  /** An init container that ends before the app starts (not a sidecar). */
  runsFirst: boolean;
}

/** A built object that runs pods asking for a GPU. */
export interface GpuWorkload {
  root: BuiltRoot;
  object: BuiltObject;
  /** `namespace/Kind/name`: the same workload built by two roots is one. */
  id: string;
  /** Pods at once; undefined for kinds that do not size a pool, or a value that is no count. */
  replicas?: number;
  /** `karpenter.sh/nodepool` of the pod template's nodeSelector. */
  pool?: string;
  tolerations: PodToleration[];
  /** Containers that ask for a GPU resource or claim. */
  gpuContainers: GpuContainer[];
  /** Every container (to add up what one pod asks for). */
  containers: GpuContainer[];
}

/** The pod spec of a workload object (or of a patch of one). */
export function podSpecOf(value: unknown): unknown {
  const kind = getIn(value, 'kind');
  const path = podTemplatePath(kind);
  if (!path) return undefined;
  return path.length === 0
    ? getIn(value, 'spec')
    : getIn(value, ...path, 'spec');
}

function readContainers(spec: unknown): GpuContainer[] {
  const out: GpuContainer[] = [];
  for (const field of ['initContainers', 'containers'] as const) {
    const list = getIn(spec, field);
    for (const c of Array.isArray(list) ? list : []) {
      const limits = getIn(c, 'resources', 'limits');
      const gpu: Record<string, number> = {};
      if (isPlainObject(limits)) {
        for (const [name, value] of Object.entries(limits)) {
          if (isGpuResourceName(name)) gpu[name] = parseCount(value) ?? 0;
        }
      }
      const claims = getIn(c, 'resources', 'claims');
      const image = getIn(c, 'image');
      out.push({
        name: String(getIn(c, 'name') ?? ''),
        ...(typeof image === 'string' && image.trim() !== '' ? { image } : {}),
        limits: gpu,
        claims: Array.isArray(claims) && claims.length > 0,
        // Sidecars (restartPolicy Always) run beside the app containers.
        runsFirst:
          field === 'initContainers' && getIn(c, 'restartPolicy') !== 'Always',
      });
    }
  }
  return out;
}

/** Whether a (source or built) workload document declares a container of this name. */
export function declaresContainer(value: unknown, name: string): boolean {
  return readContainers(podSpecOf(value)).some(c => c.name === name);
}

/** Whether a (source or built) workload document asks for this GPU resource. */
export function asksFor(value: unknown, resource: string): boolean {
  return readContainers(podSpecOf(value)).some(
    c => c.limits[resource] !== undefined,
  );
}

/** Every built object of every root that runs pods asking for a GPU. */
export function gpuWorkloads(roots: BuiltRoot[]): GpuWorkload[] {
  const out: GpuWorkload[] = [];
  for (const root of roots) {
    for (const object of root.objects) {
      const spec = podSpecOf(object);
      if (!isPlainObject(spec)) continue;
      const containers = readContainers(spec);
      const gpuContainers = containers.filter(
        c => c.claims || Object.keys(c.limits).length > 0,
      );
      if (gpuContainers.length === 0) continue;
      const replicasPath = concurrentPodsPath(object.kind);
      const rawReplicas = replicasPath ? getIn(object, ...replicasPath) : 1;
      const replicas = rawReplicas === undefined ? 1 : parseCount(rawReplicas);
      const pool = pinnedPool(spec);
      const tolerations = getIn(spec, 'tolerations');
      const namespace =
        typeof object.metadata.namespace === 'string'
          ? object.metadata.namespace
          : 'default';
      out.push({
        root,
        object,
        id: `${namespace}/${object.kind}/${object.metadata.name}`,
        ...(replicasPath && replicas !== undefined ? { replicas } : {}),
        ...(typeof pool === 'string' ? { pool } : {}),
        tolerations: (Array.isArray(tolerations) ? tolerations : []).filter(
          isPlainObject,
        ) as PodToleration[],
        gpuContainers,
        containers,
      });
    }
  }
  return out;
}

/**
 * Units of `resource` one pod of the workload holds: its app containers and
 * sidecars together, or its largest init container if that is more (the
 * effective request of a pod, Kubernetes docs "Init containers: resource
 * sharing within containers", v1.29+ with sidecars).
 */
export function unitsPerPod(workload: GpuWorkload, resource: string): number {
  let running = 0;
  let first = 0;
  for (const c of workload.containers) {
    const units = c.limits[resource] ?? 0;
    if (c.runsFirst) first = Math.max(first, units);
    else running += units;
  }
  return Math.max(running, first);
}
