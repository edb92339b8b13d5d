import type { LiveDataStatus } from '@gpu-gitops/plugin-gpu-common';
import type { RouterOptions } from './routeContext';

/** Whether each of `clusters` had live figures and drift (and why not), as the allocation and pool answers carry it. */
export function liveStatusOf(
  options: Pick<RouterOptions, 'live' | 'drift'>,
  clusters: string[],
): LiveDataStatus[] {
  return [
    ...(options.live?.statusOf(clusters) ?? []),
    ...(options.drift?.statusOf(clusters) ?? []),
  ];
}
