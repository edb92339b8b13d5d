/**
 * The planning routes: what each cluster can run, an owner's quota, and the
 * preview of a request, checked as the scaffolder actions check it.
 *   GET  /clusters[?owner=]            ClustersResponse: the cluster profiles and what each can run
 *                                      (for an owner, also what its policy forbids)
 *   GET  /quota?owner=[&cluster=][&namespace=&name=]
 *                                      QuotaUse: what the owner holds on the cluster, and its quota
 *   POST /plan[?cluster=]              PlanPreviewResponse for a GpuRequest body, with the owner's
 *                                      policy and quota checked as the scaffolder actions check them
 */
import type express from 'express';
import { InputError } from '@backstage/errors';
import {
  clusterCapabilities,
  type ClustersResponse,
  type QuotaUse,
} from '@gpu-gitops/plugin-gpu-common';
import {
  capabilitiesForOwner,
  EMPTY_POLICY,
  normalizeOwnerRef,
  quotaUseOf,
} from '@gpu-gitops/plugin-gpu-node';
import { previewPlan, quotaScopeOf } from './planPreview';
import type { RouteContext } from './routeContext';

export function addPlanningRoutes(
  router: express.Router,
  { options, credentialsOf, clusterOf }: RouteContext,
): void {
  const policy = options.policy ?? EMPTY_POLICY;

  const ownerOf = (value: unknown, required: boolean): string | undefined => {
    if (typeof value !== 'string' || value === '') {
      if (required) throw new InputError('query parameter owner is required');
      return undefined;
    }
    try {
      return normalizeOwnerRef(value);
    } catch (error) {
      throw new InputError(`owner: ${(error as Error).message}`);
    }
  };

  router.get('/clusters', async (req, res) => {
    await credentialsOf(req);
    const owner = ownerOf(req.query.owner, false);
    const body: ClustersResponse = {
      defaultCluster: options.defaultCluster,
      clusters: options.clusters.map(profile => {
        // What the cluster's GPU nodes run rules modes out, as for the actions.
        const stack = options.snapshot().clusters.get(profile.name)
          ?.repoState.gpuStack;
        const capabilities = clusterCapabilities(
          profile,
          options.gpuCatalog,
          stack,
        );
        return owner
          ? capabilitiesForOwner(capabilities, policy, owner)
          : capabilities;
      }),
    };
    res.json(body);
  });

  router.get('/quota', async (req, res) => {
    await credentialsOf(req);
    const owner = ownerOf(req.query.owner, true)!;
    const cluster = clusterOf(req.query.cluster);
    const { namespace, name } = req.query;
    // The workload a request would replace is not counted (as POST /plan does).
    const excluded =
      typeof namespace === 'string' && typeof name === 'string'
        ? `${namespace}/${name}`
        : undefined;
    const body: QuotaUse = quotaUseOf(
      policy,
      owner,
      quotaScopeOf(options, options.snapshot(), cluster),
      excluded,
    );
    res.json(body);
  });

  router.post('/plan', async (req, res) => {
    await credentialsOf(req);
    const outcome = previewPlan(
      options,
      clusterOf(req.query.cluster),
      req.body,
    );
    res.status(outcome.planned ? 200 : 400).json(outcome.body);
  });
}
