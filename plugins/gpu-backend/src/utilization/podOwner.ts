/**
 * Whether a pod belongs to a workload, by the names Kubernetes' controllers
 * give pods: a Deployment's `<name>-<replicaset hash>-<5>`, a StatefulSet's
 * `<name>-<ordinal>`, a Job's `<name>-<5>`, a CronJob's
 * `<name>-<schedule time>-<5>` (k8s.io/apiserver names.SimpleNameGenerator:
 * 5 random alphanumerics; pkg/controller/deployment: the pod-template hash).
 * Exact shapes, not a prefix: `chat` must not take `chat-api`'s pods.
 */
const SUFFIX =
  /^(\d+|[a-z0-9]{5}|[a-z0-9]{6,10}-[a-z0-9]{5}|\d{8,10}-[a-z0-9]{5})$/;

export function isPodOf(podName: string, workloadName: string): boolean {
  if (!podName.startsWith(`${workloadName}-`)) return false;
  return SUFFIX.test(podName.slice(workloadName.length + 1));
}

/**
 * The workload names a pod's name can belong to, longest first: the name
 * without the suffix shapes above (one or two dash-separated parts).
 */
export function ownerNamesOf(podName: string): string[] {
  const parts = podName.split('-');
  const names: string[] = [];
  for (const drop of [1, 2]) {
    if (parts.length <= drop) break;
    const name = parts.slice(0, parts.length - drop).join('-');
    if (isPodOf(podName, name)) names.push(name);
  }
  return names;
}
