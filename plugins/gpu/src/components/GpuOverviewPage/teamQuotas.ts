import type { QuotaUse } from '@gpu-gitops/plugin-gpu-common';
import type { GpuApi } from '../../api/GpuApi';
import { dash } from './overviewTable';
import type { TeamRow } from './overviewRows';

/** An owner's quota use on a cluster, by its key in {@link quotasOf}'s map. */
export const quotaKey = (owner: string, cluster: string) =>
  `${owner}|${cluster}`;

export function quotaText(use: QuotaUse | Error | undefined, cluster: string) {
  if (use === undefined) return `${cluster}: ${dash}`;
  if (use instanceof Error)
    return `${cluster}: quota unavailable (${use.message})`;
  return use.quota === undefined
    ? `${cluster}: ${use.used} GPUs held (no quota set)`
    : `${cluster}: ${use.used} of ${use.quota} GPUs`;
}

/** Each owner's quota use on each cluster it runs on, as `GET /quota` says (the actions' check). */
export async function quotasOf(
  api: GpuApi,
  teams: TeamRow[],
): Promise<Map<string, QuotaUse | Error>> {
  const out = new Map<string, QuotaUse | Error>();
  await Promise.all(
    teams.flatMap(t =>
      t.owner
        ? t.clusters.map(async cluster => {
            const key = quotaKey(t.owner!, cluster);
            try {
              out.set(key, await api.getQuota({ owner: t.owner!, cluster }));
            } catch (error) {
              out.set(key, error as Error);
            }
          })
        : [],
    ),
  );
  return out;
}
