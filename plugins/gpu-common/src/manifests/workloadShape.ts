import type { WorkloadKind } from '../request/types';
import type { NodeSelectorTerm } from './contradictingSelectors';

/**
 * Where the parts a GPU request touches sit in each workload kind: the pod
 * template, and the field that counts replicas. A Job runs `parallelism`
 * pods at once (default 1), a CronJob's Job does the same
 * (Kubernetes API reference: apps/v1 Deployment and StatefulSet `replicas`,
 * batch/v1 JobSpec `parallelism`, CronJobSpec `jobTemplate`).
 *
 * @public
 */
export interface WorkloadShape {
  /** Path of the pod template (`metadata` + `spec`). */
  podTemplate: string[];
  /** Path of the field that says how many pods run at once. */
  replicas: string[];
  /** The field's name for people ("replicas", "parallelism"). */
  replicasField: string;
  /** What Kubernetes assumes when the field is absent. */
  defaultReplicas: number;
}

const SHAPES: Record<WorkloadKind, WorkloadShape> = {
  Deployment: {
    podTemplate: ['spec', 'template'],
    replicas: ['spec', 'replicas'],
    replicasField: 'replicas',
    defaultReplicas: 1,
  },
  StatefulSet: {
    podTemplate: ['spec', 'template'],
    replicas: ['spec', 'replicas'],
    replicasField: 'replicas',
    defaultReplicas: 1,
  },
  Job: {
    podTemplate: ['spec', 'template'],
    replicas: ['spec', 'parallelism'],
    replicasField: 'parallelism',
    defaultReplicas: 1,
  },
  CronJob: {
    podTemplate: ['spec', 'jobTemplate', 'spec', 'template'],
    replicas: ['spec', 'jobTemplate', 'spec', 'parallelism'],
    replicasField: 'parallelism',
    defaultReplicas: 1,
  },
};

/** @public */
export function workloadShape(kind: WorkloadKind): WorkloadShape {
  return SHAPES[kind];
}

/** @public */
export function isWorkloadKind(kind: unknown): kind is WorkloadKind {
  return typeof kind === 'string' && Object.hasOwn(SHAPES, kind);
}

/**
 * Whether kustomize's `replicas:` field sets this kind's count: it scales
 * `spec.replicas` of Deployments, StatefulSets and a few others, never a
 * Job's parallelism (kustomize api/internal/konfig/builtinpluginconsts/
 * replicas.go, v4.5 and v5). The field is applied after every patch, so the
 * overlay entry, not a patch, must carry a request's count for these kinds.
 *
 * @public
 */
export function scaledByKustomizeReplicas(kind: WorkloadKind): boolean {
  return kind === 'Deployment' || kind === 'StatefulSet';
}

/** The apiVersion of each workload kind. */
export function workloadApiVersion(kind: WorkloadKind): string {
  return kind === 'Job' || kind === 'CronJob' ? 'batch/v1' : 'apps/v1';
}

function getPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 *  A container of a pod template, as far as a GPU request cares.
 *
 * @public
 */
export interface ContainerView {
  name: string;
  image?: string;
  limits: Record<string, unknown>;
  requests: Record<string, unknown>;
  /** Its `resources.claims` (DRA), in their order. */
  claims?: Record<string, unknown>[];
}

/**
 *  What a workload object says about the parts a GPU request touches.
 *
 * @public
 */
export interface WorkloadView {
  kind: WorkloadKind;
  name: string;
  namespace?: string;
  replicas: number;
  containers: ContainerView[];
  tolerations: Record<string, unknown>[];
  nodeSelector: Record<string, string>;
  /** `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`. */
  requiredNodeSelectorTerms?: NodeSelectorTerm[];
  labels: Record<string, string>;
  podAnnotations: Record<string, string>;
  resourceClaims: Record<string, unknown>[];
  /** `spec.schedulerName` of the pod template; undefined: the default scheduler. */
  schedulerName?: string;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function strings(value: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record(value)).map(([k, v]) => [k, String(v)]),
  );
}

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter(
        (v): v is Record<string, unknown> =>
          typeof v === 'object' && v !== null && !Array.isArray(v),
      )
    : [];
}

/** A replica count as written: a number, or digits in a string. */
function countOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/**
 *  Reads a workload object (plain data) through its kind's shape.
 *
 * @public
 */
export function viewWorkload(
  kind: WorkloadKind,
  object: unknown,
): WorkloadView {
  const shape = workloadShape(kind);
  const template = getPath(object, shape.podTemplate);
  const podSpec = record(getPath(template, ['spec']));
  const replicas = getPath(object, shape.replicas);
  return {
    kind,
    name: String(getPath(object, ['metadata', 'name']) ?? ''),
    namespace:
      typeof getPath(object, ['metadata', 'namespace']) === 'string'
        ? (getPath(object, ['metadata', 'namespace']) as string)
        : undefined,
    replicas: countOf(replicas) ?? shape.defaultReplicas,
    containers: list(podSpec.containers).map(c => ({
      name: String(c.name ?? ''),
      ...(typeof c.image === 'string' ? { image: c.image } : {}),
      limits: record(getPath(c, ['resources', 'limits'])),
      requests: record(getPath(c, ['resources', 'requests'])),
      claims: list(getPath(c, ['resources', 'claims'])),
    })),
    tolerations: list(podSpec.tolerations),
    nodeSelector: strings(podSpec.nodeSelector),
    requiredNodeSelectorTerms: list(
      getPath(podSpec, [
        'affinity',
        'nodeAffinity',
        'requiredDuringSchedulingIgnoredDuringExecution',
        'nodeSelectorTerms',
      ]),
    ) as NodeSelectorTerm[],
    labels: strings(getPath(object, ['metadata', 'labels'])),
    podAnnotations: strings(getPath(template, ['metadata', 'annotations'])),
    resourceClaims: list(podSpec.resourceClaims),
    ...(typeof podSpec.schedulerName === 'string'
      ? { schedulerName: podSpec.schedulerName }
      : {}),
  };
}
