import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import type { WorkloadKind } from '../request/types';
import { poolNodeLabel } from '../providers/poolNodeLabel';
import { gpuAnnotationKeys, WELL_KNOWN_KEYS } from './metadataKeys';
import { existingSelectorPatch } from './existingSelectors';
import { mergedListInOrder, replacedListWithOurs } from './patchListOrder';
import {
  DRA_CLAIM_NAME,
  podPlacement,
  type PodPlacement,
} from './podPlacement';
import {
  DRA_REQUEST_NAME,
  resourceClaimTemplateName,
} from './resourceClaimTemplate';
import { tolerates } from './tolerations';
import { patchedSchedulerName } from '../scheduling/binPackingScheduler';
import type { KubernetesObject } from './types';
import {
  workloadApiVersion,
  workloadShape,
  type ContainerView,
  type WorkloadView,
} from './workloadShape';

/**
 *  The workload a patch is for, and what it looks like before the request.
 *
 * @public
 */
export interface PatchTarget {
  kind: WorkloadKind;
  name: string;
  /**
   * `metadata.namespace` as its manifest writes it (undefined when a
   * kustomization sets it): kustomize matches a patch to its target by id,
   * so the patch names the namespace exactly as the target does.
   */
  manifestNamespace?: string;
  /** The container that gets the GPU. */
  container: string;
  /**
   * The workload as it is deployed without this request (kustomize's build of
   * its overlay; without an earlier version of this request's own patch).
   */
  current: WorkloadView;
  /** Set the container's image too (a workload the product created). */
  image?: string;
  /**
   * A kustomization's `replicas:` entry sets the count (kustomize applies it
   * after every patch): the patch leaves the count alone and the entry changes.
   */
  replicasSetByKustomization?: boolean;
}

function setPath(
  target: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

function isGpuResource(name: string): boolean {
  return name.startsWith('nvidia.com/') || name.endsWith('.nvidia.com');
}

/**
 * The pool's `nodeSelector`, and the workload's own selectors and required
 * node affinity its nodes never satisfy taken out (`existingSelectors.ts`):
 * a `null` deletes a nodeSelector key; `nodeSelectorTerms` has no merge key,
 * so the patch carries the whole list of kept terms.
 */
function setNodeSelection(
  patch: KubernetesObject,
  template: readonly string[],
  plan: Plan,
  cluster: ClusterProfile,
  current: WorkloadView,
  placement: PodPlacement,
): void {
  const own = existingSelectorPatch(plan, cluster, current);
  setPath(patch, [...template, 'spec', 'nodeSelector'], {
    ...own.deletedSelectors,
    ...placement.nodeSelector,
  });
  if (own.requiredTerms === undefined) return;
  const required = [
    ...template,
    'spec',
    'affinity',
    'nodeAffinity',
    'requiredDuringSchedulingIgnoredDuringExecution',
  ];
  setPath(
    patch,
    required,
    own.requiredTerms === null
      ? null
      : { nodeSelectorTerms: own.requiredTerms },
  );
}

/**
 * A strategic-merge patch (Kustomize `patches:`) that gives one container of
 * an existing workload the plan's GPUs and changes nothing else:
 *
 * - that container's GPU limits (other GPU resources it asked for are
 *   removed with `null`, the strategic-merge delete), or its DRA claim;
 *   `containers` merge by `name`, so the other containers are untouched;
 *   those before it are named (name only) so Kustomize keeps their order
 *   (`patchListOrder.ts`); DRA claim lists carry the workload's own claims;
 * - the pool's `nodeSelector`, without the workload's own selectors and
 *   required node-affinity expressions the pool's nodes never satisfy
 *   (`existingSelectors.ts`); and, when the workload does not tolerate the
 *   pool's taint yet, `tolerations`: that list has no merge key in the
 *   Kubernetes OpenAPI, so a patch replaces it, and the patch carries the
 *   workload's own tolerations followed by the pool's;
 * - the bin-packing scheduler's `schedulerName` when the profile opts in
 *   and the workload runs with the default scheduler (a scheduler of the
 *   team's own stays; `binPackingScheduler.ts`);
 * - the replica count (`replicas` / Job `parallelism`) only when the request
 *   asks for another number than the workload has, and no kustomization
 *   `replicas:` entry sets it;
 * - our annotations, and `backstage.io/kubernetes-id` only when absent.
 *
 * The same patch is applied in place to plain manifests (no Kustomize) and to
 * re-render the product's own workloads, so every field a person added stays.
 *
 * @public
 */
export function buildWorkloadPatch(
  plan: Plan,
  cluster: ClusterProfile,
  target: PatchTarget,
): KubernetesObject {
  const { name: requestName, namespace } = plan.request.metadata;
  const shape = workloadShape(target.kind);
  const keys = gpuAnnotationKeys(cluster.labelDomain);
  const placement = podPlacement(plan, cluster);
  const isDra = plan.sharing.mode === 'dra';
  const current = target.current;

  const metadata: Record<string, unknown> = { name: target.name };
  if (target.manifestNamespace !== undefined) {
    metadata.namespace = target.manifestNamespace;
  }
  if (current.labels[WELL_KNOWN_KEYS.backstageKubernetesId] === undefined) {
    metadata.labels = { [WELL_KNOWN_KEYS.backstageKubernetesId]: requestName };
  }
  metadata.annotations = { ...placement.annotations };
  const patch: KubernetesObject = {
    apiVersion: workloadApiVersion(target.kind),
    kind: target.kind,
    metadata: metadata as KubernetesObject['metadata'],
  };

  const replicas = plan.request.spec.gpu.replicas;
  if (!target.replicasSetByKustomization && replicas !== current.replicas) {
    setPath(patch, shape.replicas, replicas);
  }

  const template = [...shape.podTemplate];
  setPath(patch, [...template, 'metadata', 'annotations'], {
    ...placement.annotations,
  });
  setNodeSelection(patch, template, plan, cluster, current, placement);
  const schedulerName = patchedSchedulerName(cluster, current.schedulerName);
  if (schedulerName !== undefined) {
    setPath(patch, [...template, 'spec', 'schedulerName'], schedulerName);
  }

  // Tolerations this request added before (to its previous pool) go; the
  // workload's own stay, in their order.
  const previousPool =
    current.podAnnotations[keys.request] === `${namespace}/${requestName}`
      ? current.nodeSelector[poolNodeLabel(cluster)]
      : undefined;
  const kept = current.tolerations.filter(
    t =>
      previousPool === undefined ||
      previousPool === plan.pool.name ||
      !(t.key === cluster.gpuTaintKey && t.value === previousPool),
  );
  const missing = placement.tolerations.filter(
    taint => !kept.some(t => tolerates(t, taint)),
  );
  if (missing.length > 0 || kept.length !== current.tolerations.length) {
    setPath(patch, [...template, 'spec', 'tolerations'], [...kept, ...missing]);
  }

  const own = current.containers.find(c => c.name === target.container);
  const container: Record<string, unknown> = { name: target.container };
  if (target.image !== undefined && own?.image !== target.image) {
    container.image = target.image;
  }
  const limits: Record<string, unknown> = {};
  for (const key of Object.keys(own?.limits ?? {})) {
    if (isGpuResource(key) && !(key in placement.limits)) limits[key] = null;
  }
  Object.assign(limits, placement.limits);
  const requests: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(own?.requests ?? {})) {
    if (!isGpuResource(key)) continue;
    // Kubernetes requires requests = limits for extended resources.
    if (key in placement.limits) {
      if (String(value) !== placement.limits[key]) {
        requests[key] = placement.limits[key];
      }
    } else requests[key] = null;
  }
  const resources: Record<string, unknown> = {};
  if (Object.keys(limits).length > 0) resources.limits = limits;
  if (Object.keys(requests).length > 0) resources.requests = requests;
  if (isDra) resources.claims = containerClaims(own);
  container.resources = resources;
  setPath(
    patch,
    [...template, 'spec', 'containers'],
    containersInOrder(current, container),
  );
  if (isDra) {
    setPath(
      patch,
      [...template, 'spec', 'resourceClaims'],
      podResourceClaims(current, requestName),
    );
  }
  return patch;
}

/** The patch's `containers`: see `mergedListInOrder` (kustomize puts the patch's items first). */
function containersInOrder(
  current: WorkloadView,
  container: Record<string, unknown>,
): Record<string, unknown>[] {
  return mergedListInOrder(
    current.containers.map(c => c.name),
    'name',
    [container],
  );
}

/** The GPU container's `resources.claims`: its own, then the request's. */
function containerClaims(
  own: ContainerView | undefined,
): Record<string, unknown>[] {
  return replacedListWithOurs(own?.claims ?? [], {
    name: DRA_CLAIM_NAME,
    request: DRA_REQUEST_NAME,
  });
}

/** The pod's `resourceClaims`: the workload's own, then the request's. */
function podResourceClaims(
  current: WorkloadView,
  requestName: string,
): Record<string, unknown>[] {
  return replacedListWithOurs(current.resourceClaims, {
    name: DRA_CLAIM_NAME,
    resourceClaimTemplateName: resourceClaimTemplateName(requestName),
  });
}
