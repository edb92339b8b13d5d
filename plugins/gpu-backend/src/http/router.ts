/**
 * The gpu backend's HTTP API (mounted at /api/gpu):
 *   GET  /health                       unauthenticated readiness + index revision: 200, or 503
 *                                      naming what has not worked yet (health/Readiness.ts)
 *   /allocation, /right-size, /pools, /pools/:name, /workloads   allocationRoutes.ts
 *   /clusters, /quota, POST /plan                   planningRoutes.ts
 * Every route but /health needs user or service credentials; GPU workloads
 * are shown only when the caller may read their catalog entity (/workloads
 * lists what the repository holds, for the form that names one).
 */
import express from 'express';
import Router from 'express-promise-router';
import { addAllocationRoutes } from './allocationRoutes';
import { addPlanningRoutes } from './planningRoutes';
import { routeContext, type RouterOptions } from './routeContext';

export type { RouterOptions } from './routeContext';

/** @public */
export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const router = Router();
  router.use(express.json({ limit: '256kb' }));

  router.get('/health', async (_req, res) => {
    const revision = options.snapshot().revision;
    const notReady = (await options.readiness?.notReady()) ?? [];
    if (notReady.length > 0) {
      res.status(503).json({ status: 'not ready', notReady, revision });
    } else {
      res.json({ status: 'ok', revision });
    }
  });

  const context = routeContext(options);
  addAllocationRoutes(router, context);
  addPlanningRoutes(router, context);
  return router;
}
