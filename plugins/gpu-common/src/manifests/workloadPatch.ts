import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import type { WorkloadKind } from '../request/types';
import { WELL_KNOWN_KEYS } from './metadataKeys';
import { existingSelectorPatch } from './existingSelectors';
import { gpuContainerPatch } from './gpuContainerPatch';
import { mergedListInOrder, replacedListWithOurs } from './patchListOrder';
import { patchedTolerations } from './patchedTolerations';
import {
  DRA_CLAIM_NAME,
  podPlacement,
  type PodPlacement,
} from './podPlacement';
import { resourceClaimTemplateName } from './resourceClaimTemplate';
import { patchedSchedulerName } from '../scheduling/binPackingScheduler';
import type { KubernetesObject } from './types';
import {
  workloadApiVersion,
  workloadShape,
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
  const shape = workloadShape(target.kind);
  const placement = podPlacement(plan, cluster);
  const patch: KubernetesObject = {
    apiVersion: workloadApiVersion(target.kind),
    kind: target.kind,
    metadata: patchMetadata(target, plan.request.metadata.name, placement),
  };
  const replicas = plan.request.spec.gpu.replicas;
  if (
    !target.replicasSetByKustomization &&
    replicas !== target.current.replicas
  ) {
    setPath(patch, shape.replicas, replicas);
  }
  setPodTemplate(
    patch,
    [...shape.podTemplate],
    plan,
    cluster,
    target,
    placement,
  );
  return patch;
}

/** The workload's name and namespace as its manifest writes them, our annotations, `backstage.io/kubernetes-id` when absent. */
function patchMetadata(
  target: PatchTarget,
  requestName: string,
  placement: PodPlacement,
): KubernetesObject['metadata'] {
  const metadata: Record<string, unknown> = { name: target.name };
  if (target.manifestNamespace !== undefined) {
    metadata.namespace = target.manifestNamespace;
  }
  const idLabel = WELL_KNOWN_KEYS.backstageKubernetesId;
  if (target.current.labels[idLabel] === undefined) {
    metadata.labels = { [idLabel]: requestName };
  }
  metadata.annotations = { ...placement.annotations };
  return metadata as KubernetesObject['metadata'];
}

/** The pod template's part of the patch: annotations, node selection, scheduler, tolerations, the GPU container, DRA claims. */
function setPodTemplate(
  patch: KubernetesObject,
  template: readonly string[],
  plan: Plan,
  cluster: ClusterProfile,
  target: PatchTarget,
  placement: PodPlacement,
): void {
  const { current } = target;
  const spec = [...template, 'spec'];
  setPath(patch, [...template, 'metadata', 'annotations'], {
    ...placement.annotations,
  });
  setNodeSelection(patch, template, plan, cluster, current, placement);
  const schedulerName = patchedSchedulerName(cluster, current.schedulerName);
  if (schedulerName !== undefined) {
    setPath(patch, [...spec, 'schedulerName'], schedulerName);
  }
  const tolerations = patchedTolerations(plan, cluster, current, placement);
  if (tolerations !== undefined) {
    setPath(patch, [...spec, 'tolerations'], tolerations);
  }
  const isDra = plan.sharing.mode === 'dra';
  const own = current.containers.find(c => c.name === target.container);
  const container = gpuContainerPatch(
    own,
    target.container,
    target.image,
    placement,
    isDra,
  );
  setPath(
    patch,
    [...spec, 'containers'],
    containersInOrder(current, container),
  );
  if (isDra) {
    setPath(
      patch,
      [...spec, 'resourceClaims'],
      podResourceClaims(current, plan.request.metadata.name),
    );
  }
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
