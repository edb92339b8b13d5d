import { workloadShape } from '../manifests/workloadShape';
import type { WorkloadKind } from '../request/types';

/**
 *  The existing workload as a plan describes it.
 *
 * @public
 */
export interface ExistingWorkloadFacts {
  kind: WorkloadKind;
  name: string;
  /** Pods it runs at once today (`replicas`, or `parallelism` for Jobs and CronJobs). */
  replicas: number;
  containers: readonly string[];
}

/**
 *  "3 replicas", "1 replica", "parallelism 2": the count in its field's words.
 *
 * @public
 */
export function formatReplicaCount(kind: WorkloadKind, count: number): string {
  const field = workloadShape(kind).replicasField;
  if (field !== 'replicas') return `${field} ${count}`;
  return count === 1 ? '1 replica' : `${count} replicas`;
}

/**
 * One line on the existing workload a request changes, e.g. "Existing
 * Deployment recommender: 3 replicas now → 2 requested (containers: api,
 * metrics-exporter; GPU to api)". The requested count is shown only when it
 * differs (the patch leaves the count alone otherwise). For the plan
 * preview's summary and the form.
 *
 * @public
 */
export function describeExistingWorkload(
  workload: ExistingWorkloadFacts,
  requestedReplicas: number,
  gpuContainer: string,
): string {
  const now = `${formatReplicaCount(workload.kind, workload.replicas)} now`;
  const change =
    requestedReplicas === workload.replicas
      ? now
      : `${now} → ${requestedReplicas} requested`;
  return `Existing ${workload.kind} ${workload.name}: ${change} (containers: ${workload.containers.join(', ')}; GPU to ${gpuContainer})`;
}
