/**
 * Pods that name the bin-packing scheduler (`schedulerName: gpu-binpack`,
 * what the product renders where the cluster profile says `binPacking`)
 * are scheduled by nobody else: while no pod of that scheduler's Deployment
 * is ready they stay Pending without a single FailedScheduling event, so
 * the pending finding alone would not say why.
 */
import type { V1Pod } from '@kubernetes/client-node';
import {
  BIN_PACKING_SCHEDULER_NAME,
  BIN_PACKING_SCHEDULER_NAMESPACE,
  type DriftFinding,
} from '@gpu-gitops/plugin-gpu-common';

/** A pod that runs and passes its readiness probe (condition `Ready`). */
function isReady(pod: V1Pod): boolean {
  return (
    pod.status?.phase === 'Running' &&
    (pod.status.conditions ?? []).some(
      c => c.type === 'Ready' && c.status === 'True',
    )
  );
}

/**
 * The finding for `pending` pods of one workload waiting for the
 * bin-packing scheduler, given its Deployment's pods (undefined: not read,
 * the profile does not opt in); none while one of them is ready.
 */
export function schedulerNotRunningFindings(
  pending: V1Pod[],
  schedulerPods: V1Pod[] | undefined,
): DriftFinding[] {
  if (!schedulerPods || schedulerPods.some(isReady)) return [];
  const waiting = pending.filter(
    p => p.spec?.schedulerName === BIN_PACKING_SCHEDULER_NAME,
  );
  if (waiting.length === 0) return [];
  const deployment = `${BIN_PACKING_SCHEDULER_NAMESPACE}/${BIN_PACKING_SCHEDULER_NAME}`;
  const state =
    schedulerPods.length === 0
      ? 'it has no pod'
      : `none of its ${schedulerPods.length} pods is ready`;
  return [
    {
      kind: 'scheduler-not-running',
      object: `Deployment/${deployment}`,
      message: `${waiting.length} pod${waiting.length === 1 ? '' : 's'} pending because the ${BIN_PACKING_SCHEDULER_NAME} scheduler is not running (Deployment ${deployment}: ${state}); nothing else schedules pods with schedulerName: ${BIN_PACKING_SCHEDULER_NAME}`,
    },
  ];
}
