import { ScmIntegrations } from '@backstage/integration';
import { readGpuBackendConfig } from '../config/readGpuBackendConfig';
import { Readiness } from '../health/Readiness';
import { scheduleExpiryReleases } from '../lifecycle/scheduleExpiryReleases';
import { schedulePullRequestUpdates } from '../pullRequests/schedulePullRequestUpdates';
import type { GpuPluginServices } from './gpuPluginServices';
import { mountRoutes } from './mountRoutes';
import { startAllocationIndex } from './startAllocationIndex';
import { startLiveData } from './startLiveData';

/**
 * The `gpu` backend plugin's start, step by step: readiness, the allocation
 * index, the scheduled upkeep of its pull requests, live data, then the routes
 * and actions that read them.
 */
export async function initGpuPlugin(services: GpuPluginServices) {
  const { config, logger, auth, scheduler, database, catalog } = services;
  const settings = readGpuBackendConfig(config);
  const integrations = ScmIntegrations.fromConfig(config);
  // /health answers 503 until the catalog has answered once (on this
  // replica: internal discovery reaches its own catalog) and, with a
  // repository, until the index has been built once.
  const readiness = new Readiness(logger);
  readiness.probes(
    'catalog',
    'the catalog has not answered yet (see the backend log)',
    async () => {
      await catalog.getEntities(
        { limit: 1, fields: ['kind'] },
        { credentials: await auth.getOwnServiceCredentials() },
      );
    },
  );
  const index = await startAllocationIndex({
    settings,
    integrations,
    readiness,
    scheduler,
    logger,
  });
  // Expired requests get their release pull request, once (one replica
  // at a time, claimed in the plugin's database).
  await scheduleExpiryReleases({
    settings,
    scheduler,
    logger,
    integrations,
    database,
    snapshot: () => index.snapshot(),
  });
  // Open GPU pull requests follow their base (one replica at a time,
  // claimed in the plugin's database).
  await schedulePullRequestUpdates({
    settings,
    scheduler,
    logger,
    integrations,
    database,
  });
  const liveData = await startLiveData({ config, settings, scheduler, logger });
  await mountRoutes(services, {
    settings,
    integrations,
    readiness,
    index,
    liveData,
  });
}
