/**
 * Legacy Karpenter fields counted seconds (`ttlSecondsAfterEmpty: 30`); v1
 * takes a duration string matching the CRD pattern `^(([0-9]+(s|m|h))+)|(Never)$`
 * (`karpenter.sh_nodepools.yaml`, aws/karpenter-provider-aws v1.0.0).
 */

/** `2592000` → `720h`, `90` → `1m30s`, `0` → `0s`. */
export function secondsToDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}

/** A whole, non-negative number of seconds, or undefined. */
export function wholeSeconds(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}
