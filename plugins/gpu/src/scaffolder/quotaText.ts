import type { QuotaUse } from '@gpu-gitops/plugin-gpu-common';

/** GPU counts as the actions print them: at most two decimals (3/7 → 0.43). */
function gpus(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/**
 * An owner's quota use in one line: what it holds, what this request adds,
 * and the sum against the quota, e.g. `GPU quota of group:default/ml-platform
 * on dev: 0.5 used + 8 this request = 8.5 of 8 GPUs`.
 */
export function quotaText(use: QuotaUse): string {
  const who = `${use.owner} on ${use.cluster}`;
  const held =
    use.requested > 0
      ? `${gpus(use.used)} used + ${gpus(use.requested)} this request = ${gpus(use.used + use.requested)}`
      : `${gpus(use.used)} used`;
  return use.quota === undefined
    ? `GPU use of ${who}: ${held} GPUs (no quota)`
    : `GPU quota of ${who}: ${held} of ${gpus(use.quota)} GPUs`;
}
