export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

/**
 * Kubernetes' toleration matching (`ToleratesTaint` in
 * k8s.io/api/core/v1/toleration.go).
 */
export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (!t.key) return t.operator === 'Exists';
  if (t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

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
