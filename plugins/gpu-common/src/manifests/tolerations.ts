/**
 * Taints and tolerations, matched as Kubernetes matches them: the one copy
 * the patch builder, the NodePool rules and `validate` use.
 *
 * @public
 */

export interface NodeTaint {
  key: string;
  value?: string;
  effect: string;
}

/** @public */
export interface PodToleration {
  key?: string;
  /** `Equal` (the default) or `Exists`. */
  operator?: string;
  value?: string;
  effect?: string;
}

/**
 * Kubernetes' toleration matching (`ToleratesTaint` in
 * k8s.io/api/core/v1/toleration.go, Kubernetes v1.33).
 *
 * @public
 */
export function tolerates(
  toleration: PodToleration,
  taint: NodeTaint,
): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key === undefined || toleration.key === '') {
    return toleration.operator === 'Exists';
  }
  if (toleration.key !== taint.key) return false;
  if (toleration.operator === 'Exists') return true;
  return (toleration.value ?? '') === (taint.value ?? '');
}

/**
 * The taints that keep these pods off a node: every NoSchedule / NoExecute
 * taint no toleration tolerates. PreferNoSchedule only steers the scheduler;
 * it never keeps a pod off.
 *
 * @public
 */
export function untoleratedTaints(
  taints: readonly NodeTaint[],
  tolerations: readonly PodToleration[],
): NodeTaint[] {
  return taints
    .filter(taint => taint.effect !== 'PreferNoSchedule')
    .filter(taint => !tolerations.some(t => tolerates(t, taint)));
}
