import type {
  LoggerService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import type { GpuBackendConfig } from '../config/readGpuBackendConfig';
import { readDriftConfig } from '../config/readDriftConfig';
import { readUtilizationConfig } from '../config/readUtilizationConfig';
import { ClusterDrift } from '../drift/clusterDrift';
import { LiveData } from '../utilization/liveData';
import { scheduleRefresh } from './scheduleRefresh';

/**
 *  Id of the scheduled task that reads live data from each cluster's Prometheus and Kubernetes API.
 *
 * @public
 */
export const LIVE_DATA_REFRESH_TASK_ID = 'gpu-live-data-refresh';

/**
 * Live data (gpu.utilization): every replica asks each cluster's Prometheus
 * the same fixed queries, and reads its Kubernetes API for drift with the
 * same fixed calls, on its own schedule.
 */
export async function startLiveData({
  config,
  settings,
  scheduler,
  logger,
}: {
  config: RootConfigService;
  settings: GpuBackendConfig;
  scheduler: SchedulerService;
  logger: LoggerService;
}) {
  const clusterNames = settings.clusters.map(c => c.name);
  const utilization = readUtilizationConfig(config, clusterNames);
  const live = utilization && new LiveData(utilization);
  const driftConfig = readDriftConfig(config, clusterNames);
  const drift =
    driftConfig &&
    new ClusterDrift(driftConfig.targets, {
      profiles: settings.clusters,
      graceMs: driftConfig.pendingGraceMs,
    });
  if (utilization && live) {
    // Local scope: every replica keeps its own live data.
    await scheduleRefresh(scheduler, {
      id: LIVE_DATA_REFRESH_TASK_ID,
      scope: 'local',
      frequency: utilization.refresh,
      timeout: { minutes: 2 },
      run: async () => {
        const statuses = await Promise.all([
          live.refresh(),
          drift?.refresh() ?? [],
        ]);
        for (const status of statuses.flat()) {
          if (!status.available) {
            logger.warn(
              `no live data from ${status.cluster} (${status.source}): ${status.reason}`,
            );
          }
        }
      },
    });
  }
  return { live, drift };
}
