import type { LiveDataStatus } from '@gpu-gitops/plugin-gpu-common';

/** What the card, the tab and the GPU page say when a cluster has no live data, and why. */
export function noLiveDataText(status: LiveDataStatus): string {
  return `no live data from ${status.cluster}: ${status.reason ?? 'unknown'}`;
}
