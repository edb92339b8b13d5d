/**
 * The names the product gives Kueue's objects: one place, so the queue label
 * a workload carries always names the LocalQueue written beside it.
 */

/**
 * Kueue's API the product writes: `kueue.x-k8s.io/v1beta2` (Kueue v0.19;
 * v1beta1 is marked `+kubebuilder:deprecatedversion` in kubernetes-sigs/kueue
 * v0.19.2 `apis/kueue/v1beta1/*_types.go`).
 *
 * @public
 */
export const KUEUE_API_VERSION = 'kueue.x-k8s.io/v1beta2';

/**
 * The label that sends a workload to a LocalQueue (kubernetes-sigs/kueue
 * v0.19.2 `site/content/en/docs/tasks/run/deployment.md`: on the
 * Deployment's `metadata.labels`).
 *
 * @public
 */
export const QUEUE_NAME_LABEL = 'kueue.x-k8s.io/queue-name';

/**
 * A team's queue name, from its owner ref (`group:default/ml-platform` →
 * `ml-platform`): ClusterQueue and LocalQueue names must be DNS-1123
 * subdomains, and catalog names may hold upper case and `_`.
 *
 * @public
 */
export function teamQueueName(owner: string): string {
  const name = owner.slice(owner.lastIndexOf('/') + 1).replace(/^[^:]*:/, '');
  return name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
}

/** The cohort every team queue of a cluster joins, so idle quota is lent. */
export function clusterCohortName(cluster: string): string {
  return `gpu-${cluster}`;
}
