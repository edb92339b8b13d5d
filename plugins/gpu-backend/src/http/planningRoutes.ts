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
  chooseContainer,
  clusterCapabilities,
  describeIssue,
  fieldLabel,
  formatPlanText,
  isGpuInputError,
  parseGpuRequest,
  plan,
  planToJson,
  type ClusterProfile,
  type ClustersResponse,
  type InputIssue,
  type PlanPreviewResponse,
  type PlanRefusalResponse,
  type QuotaUse,
  type RepoState,
  withSelectorWarnings,
} from '@gpu-gitops/plugin-gpu-common';
import {
  capabilitiesForOwner,
  EMPTY_POLICY,
  normalizeOwnerRef,
  clusterNotBootstrapped,
  ownerPolicyCheck,
  quotaUseOf,
  type RequestQuotaScope,
} from '@gpu-gitops/plugin-gpu-node';
import { findExistingWorkload } from '../allocation/findExistingWorkload';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import type { RouteContext } from './routeContext';

const NO_STATE: RepoState = {
  pools: [],
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [],
};

/** The 400 of POST /plan: each issue in the form's words, with its path and rule. */
function refusal(issues: InputIssue[], quota?: QuotaUse): PlanRefusalResponse {
  const body: PlanRefusalResponse = {
    error: {
      name: 'InputError',
      message: issues.map(describeIssue).join('\n'),
    },
    issues: issues.map(issue => {
      const field = fieldLabel(issue.path);
      return field ? { ...issue, field } : issue;
    }),
  };
  if (quota) body.quota = quota;
  return body;
}

export function addPlanningRoutes(
  router: express.Router,
  { options, credentialsOf, clusterOf }: RouteContext,
): void {
  const policy = options.policy ?? EMPTY_POLICY;

  /**
   * Where a request's quota is counted, read from the index as the actions
   * read their checkout: the cluster's pools, every GPU workload of the
   * repository, owners from the stored requests.
   */
  const quotaScope = (
    snapshot: IndexSnapshot,
    cluster: ClusterProfile,
  ): RequestQuotaScope => ({
    cluster: cluster.name,
    state: {
      ...(snapshot.clusters.get(cluster.name)?.repoState ?? NO_STATE),
      workloads: snapshot.workloads,
    },
    isDefaultCluster: cluster.name === options.defaultCluster,
    ownerOf: id => snapshot.requests.get(id)?.request.spec.owner,
  });

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
      quotaScope(options.snapshot(), cluster),
      excluded,
    );
    res.json(body);
  });

  router.post('/plan', async (req, res) => {
    await credentialsOf(req);
    const cluster = clusterOf(req.query.cluster);
    const snapshot = options.snapshot();
    const indexed = snapshot.clusters.get(cluster.name);
    const state = indexed?.repoState;
    try {
      const request = parseGpuRequest(req.body);
      // Refused as the actions refuse it: no GPU setup for the cluster yet.
      if (indexed && !indexed.bootstrapped) {
        throw clusterNotBootstrapped(cluster.name, indexed.kustomizationPath);
      }
      // The owner's policy and quota, through the check the actions run.
      const check = ownerPolicyCheck(policy, options.gpuCatalog, request);
      if (check.choiceIssues.length > 0) {
        res.status(400).json(refusal(check.choiceIssues));
        return;
      }
      const named = request.spec.workload.existing;
      const found = named
        ? findExistingWorkload(
            snapshot,
            { ...named, namespace: request.metadata.namespace },
            cluster.name,
          )
        : undefined;
      // Refused as the actions refuse it: several containers and none named.
      const existing = found && {
        ...found,
        gpuContainer: chooseContainer(
          { ...found, containers: found.containers.map(name => ({ name })) },
          named?.container,
        ),
      };
      const fresh = plan(request, check.catalog, cluster, state);
      // The selectors the patch takes out, in the pull request's words.
      const planned = existing
        ? withSelectorWarnings(fresh, cluster, {
            nodeSelector: existing.nodeSelector ?? {},
            ...(existing.requiredNodeSelectorTerms
              ? {
                  requiredNodeSelectorTerms: existing.requiredNodeSelectorTerms,
                }
              : {}),
          })
        : fresh;
      const { issues, quota } = check.checkPlan(
        planned,
        quotaScope(snapshot, cluster),
      );
      if (issues.length > 0) {
        res.status(400).json(refusal(issues, quota));
        return;
      }
      const body: PlanPreviewResponse = {
        plan: planToJson(planned),
        summary: formatPlanText(
          planned,
          existing
            ? {
                existing: {
                  workload: existing,
                  gpuContainer: existing.gpuContainer,
                },
              }
            : {},
        ),
        quota,
      };
      if (existing) body.existing = existing;
      res.json(body);
    } catch (error) {
      if (!isGpuInputError(error)) throw error;
      // The issues name the field and the rule, so the form can mark the field.
      res.status(400).json(refusal(error.issues));
    }
  });
}
