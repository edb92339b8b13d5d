import type { PoolState, Taint } from './types';

/** Every taint of a reused pool that keeps pods off (NoSchedule, NoExecute). */
export function reusedPoolTaints(reused: PoolState | undefined): Taint[] {
  return (reused?.taints ?? [])
    .filter(t => t.effect === 'NoSchedule' || t.effect === 'NoExecute')
    .map(t => ({
      key: t.key,
      value: t.value ?? '',
      effect: t.effect as Taint['effect'],
    }));
}

/**
 * A reused pool keeps the taint it has in the repository (perhaps written by
 * hand, e.g. `nvidia.com/gpu=true`): the workload must tolerate THAT taint, not
 * the one we would derive for a new pool. Prefer the cluster's GPU taint key.
 */
export function reusedPoolTaint(
  reused: PoolState | undefined,
  gpuTaintKey: string,
): Taint | undefined {
  const taints = (reused?.taints ?? []).filter(t =>
    ['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect),
  );
  const chosen = taints.find(t => t.key === gpuTaintKey) ?? taints[0];
  if (!chosen) return undefined;
  return {
    key: chosen.key,
    value: chosen.value ?? '',
    effect: chosen.effect as Taint['effect'],
  };
}
