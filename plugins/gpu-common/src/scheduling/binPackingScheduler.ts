/**
 * The second kube-scheduler that bin-packs GPU pods (NodeResourcesFit
 * MostAllocated on the GPU resources), run beside the default one as
 * Kubernetes documents ("Configure Multiple Schedulers",
 * https://kubernetes.io/docs/tasks/extend-kubernetes/configure-multiple-schedulers/):
 * the bootstrap writes it (gpu-node `changes/bootstrap/scheduler/`), and a
 * pod is scheduled by it only when its `spec.schedulerName` names it. So the
 * GPU workloads the product renders name it exactly when the cluster profile
 * opts in (`binPacking: true`); every other pod keeps the default scheduler.
 */
import type { ClusterProfile } from '../cluster/types';

/**
 * The bin-packing scheduler's `schedulerName`, also its Deployment's,
 * ServiceAccount's and leader-election lease's name.
 *
 * @public
 */
export const BIN_PACKING_SCHEDULER_NAME = 'gpu-binpack';

/**
 * Where the bin-packing scheduler runs (beside the default one, as the
 * Kubernetes example does), and the labels of its pods: the bootstrap
 * writes them, drift looks its running pods up by them.
 *
 * @public
 */
export const BIN_PACKING_SCHEDULER_NAMESPACE = 'kube-system';

/**
 * The labels of the bin-packing scheduler's pods (its Deployment's selector).
 *
 * @public
 */
export const BIN_PACKING_SCHEDULER_POD_LABELS: Readonly<
  Record<string, string>
> = {
  'app.kubernetes.io/name': BIN_PACKING_SCHEDULER_NAME,
  'app.kubernetes.io/component': 'scheduler',
};

/**
 * The scheduler a pod runs with when it names none (kube-scheduler's default
 * profile name, `DefaultSchedulerName` in k8s.io/api core/v1 types.go).
 */
const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/**
 * The `schedulerName` the cluster's GPU pods get: the bin-packing
 * scheduler's when the profile opts in; undefined: the default scheduler.
 *
 * @public
 */
export function gpuSchedulerName(
  cluster: Pick<ClusterProfile, 'binPacking'>,
): string | undefined {
  return cluster.binPacking ? BIN_PACKING_SCHEDULER_NAME : undefined;
}

/**
 * The `schedulerName` a patch gives an existing workload that runs with
 * `current`: the bin-packing scheduler's in place of the default one; a
 * scheduler of the team's own (Volcano, a scheduler plugin's) is its
 * choice, kept. Undefined: the patch leaves `schedulerName` alone.
 *
 * @public
 */
export function patchedSchedulerName(
  cluster: Pick<ClusterProfile, 'binPacking'>,
  current: string | undefined,
): string | undefined {
  const ours = gpuSchedulerName(cluster);
  if (ours === undefined || current === ours) return undefined;
  return current === undefined || current === DEFAULT_SCHEDULER_NAME
    ? ours
    : undefined;
}

/** `1.36.2` or `v1.36.2`: the tag of a kube-scheduler release names its patch. */
const FULL_VERSION = /^v?(\d+\.\d+\.\d+)$/;

/**
 * The kube-scheduler release that runs the bin-packing profile: the one
 * of the cluster's Kubernetes version, patch included (images are tagged
 * `registry.k8s.io/kube-scheduler:v1.36.2`; a scheduler newer or older than
 * the API server is outside the version skew policy). Undefined when the
 * profile's `kubernetesVersion` does not name one (`binPackingVersionProblem`).
 *
 * @public
 */
export function kubeSchedulerVersion(
  kubernetesVersion: string | undefined,
): string | undefined {
  const match = kubernetesVersion
    ? FULL_VERSION.exec(kubernetesVersion.trim())
    : null;
  return match ? `v${match[1]}` : undefined;
}

/**
 * Why the bin-packing scheduler cannot be written for a profile, in the
 * words of its fields; undefined when it can.
 *
 * @public
 */
export function binPackingVersionProblem(
  kubernetesVersion: string | undefined,
): string | undefined {
  if (kubeSchedulerVersion(kubernetesVersion) !== undefined) return undefined;
  return `the bin-packing scheduler runs the kube-scheduler of the cluster's Kubernetes version, so kubernetesVersion must name it with its patch, e.g. "1.36.2" (now ${kubernetesVersion ? `"${kubernetesVersion}"` : 'unset'})`;
}
