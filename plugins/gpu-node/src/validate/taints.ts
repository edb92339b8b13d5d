import {
  tolerates,
  type NodeTaint as Taint,
  type PodToleration as Toleration,
} from '@gpu-gitops/plugin-gpu-common';

export type { Taint, Toleration };

/** Whether pods with these tolerations may land on nodes with these taints. */
export function toleratesAll(
  tolerations: Toleration[],
  taints: Taint[],
): boolean {
  // PreferNoSchedule only steers the scheduler; it never keeps a pod off.
  return taints
    .filter(t => t.effect !== 'PreferNoSchedule')
    .every(t => tolerations.some(tol => tolerates(tol, t)));
}
