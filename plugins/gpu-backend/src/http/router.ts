/**
 * The gpu backend's HTTP API (mounted at /api/gpu):
 *   GET  /health                       unauthenticated readiness + index revision: 200, or 503
 *                                      naming what has not worked yet (health/Readiness.ts)
 *   GET  /allocation?entityRef=...     AllocationResponse of one catalog entity
 *   GET  /pools[?cluster=]             PoolsResponse
 *   GET  /pools/:name[?cluster=]       PoolSummary
 *   GET  /workloads?name=[&namespace=][&kind=]
 *                                      WorkloadsResponse: the repository's workload objects of that name
 *   GET  /clusters[?owner=]            ClustersResponse: the cluster profiles and what each can run
 *                                      (for an owner, also what its policy forbids)
 *   GET  /quota?owner=[&cluster=][&namespace=&name=]
 *                                      QuotaUse: what the owner holds on the cluster, and its quota
 *   POST /plan[?cluster=]              PlanPreviewResponse for a GpuRequest body, with the owner's
 *                                      policy and quota checked as the scaffolder actions check them
 * Every route but /health needs user or service credentials; GPU workloads
 * are shown only when the caller may read their catalog entity (/workloads
 * lists what the repository holds, for the form that names one).
 */
import express from 'express';
import Router from 'express-promise-router';
import type {
  BackstageCredentials,
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { InputError, NotFoundError } from '@backstage/errors';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  centsToUsd,
  chooseContainer,
  clusterCapabilities,
  describeIssue,
  fieldLabel,
  formatPlanText,
  isGpuInputError,
  isWorkloadKind,
  parseGpuRequest,
  plan,
  planToJson,
  roundDecimals,
  usdToCents,
  WORKLOAD_KINDS,
  type AllocationResponse,
  type ClusterProfile,
  type ClustersResponse,
  type GpuCatalog,
  type InputIssue,
  type PlanPreviewResponse,
  type PlanRefusalResponse,
  type PoolSummary,
  type PoolsResponse,
  type QuotaUse,
  type RepoState,
  type WorkloadsResponse,
} from '@gpu-gitops/plugin-gpu-common';
import {
  capabilitiesForOwner,
  EMPTY_POLICY,
  normalizeOwnerRef,
  clusterNotBootstrapped,
  ownerPolicyCheck,
  quotaUseOf,
  type GpuPolicy,
  type RequestQuotaScope,
} from '@gpu-gitops/plugin-gpu-node';
import type { AllocationQueries } from '../allocation/AllocationQueries';
import { findExistingWorkload } from '../allocation/findExistingWorkload';
import type { IndexedPoolSummary } from '../allocation/poolSummaries';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import type { Readiness } from '../health/Readiness';
import {
  readableEntitiesByKubernetesId,
  selects,
  workloadSelector,
} from './entityAccess';

export interface RouterOptions {
  httpAuth: HttpAuthService;
  catalog: CatalogService;
  logger?: LoggerService;
  /** The current index snapshot (replaced on every refresh). */
  snapshot(): IndexSnapshot;
  queries: AllocationQueries;
  gpuCatalog: GpuCatalog;
  clusters: ClusterProfile[];
  defaultCluster: string;
  /** `gpu.policy`: the owners' allowed models and modes and GPU quotas (default: none). */
  policy?: GpuPolicy;
  /** What must have worked once before /health answers 200 (default: nothing). */
  readiness?: Readiness;
}

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

export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const { httpAuth, catalog, queries } = options;
  const policy = options.policy ?? EMPTY_POLICY;
  const router = Router();
  router.use(express.json({ limit: '256kb' }));

  const credentialsOf = (req: express.Request) =>
    httpAuth.credentials(req, { allow: ['user', 'service'] });

  const clusterOf = (value: unknown): ClusterProfile => {
    const name =
      typeof value === 'string' && value !== ''
        ? value
        : options.defaultCluster;
    const profile = options.clusters.find(c => c.name === name);
    if (!profile) {
      throw new InputError(
        `unknown cluster "${name}"; configured clusters: ${options.clusters
          .map(c => c.name)
          .join(', ')}`,
      );
    }
    return profile;
  };

  router.get('/health', async (_req, res) => {
    const revision = options.snapshot().revision;
    const notReady = (await options.readiness?.notReady()) ?? [];
    if (notReady.length > 0) {
      res.status(503).json({ status: 'not ready', notReady, revision });
    } else {
      res.json({ status: 'ok', revision });
    }
  });

  router.get('/allocation', async (req, res) => {
    const credentials = await credentialsOf(req);
    const raw = req.query.entityRef;
    if (typeof raw !== 'string' || raw === '') {
      throw new InputError('query parameter entityRef is required');
    }
    let entityRef: string;
    try {
      entityRef = stringifyEntityRef(
        parseEntityRef(raw, {
          defaultKind: 'component',
          defaultNamespace: 'default',
        }),
      );
    } catch (error) {
      throw new InputError(`entityRef: ${(error as Error).message}`);
    }
    // The caller's own view of the catalog: not readable = not found.
    const entity = await catalog.getEntityByRef(entityRef, { credentials });
    if (!entity) throw new NotFoundError(`entity ${entityRef} not found`);
    const selector = workloadSelector(entity);
    const snapshot = options.snapshot();
    const allocations = (
      snapshot.workloadsByKubernetesId.get(selector.kubernetesId) ?? []
    )
      .filter(w => selects(selector, w))
      .map(w => ({ ...queries.allocation(snapshot, w), entityRef }));
    const body: AllocationResponse = {
      entityRef,
      allocations,
      totals: {
        physicalGpus: roundDecimals(
          allocations.reduce((sum, a) => sum + a.physicalGpus, 0),
          6,
        ),
        // Summed in cents: every attributed cost is an exact number of them.
        usdPerMonth: centsToUsd(
          allocations.reduce((sum, a) => sum + usdToCents(a.usdPerMonth), 0),
        ),
      },
    };
    if (snapshot.revision) body.revision = snapshot.revision;
    res.json(body);
  });

  /** Pool summaries with only the consumers whose entity the caller may read. */
  const visiblePools = async (
    credentials: BackstageCredentials,
    pools: IndexedPoolSummary[],
  ): Promise<PoolSummary[]> => {
    const ids = pools.flatMap(p =>
      p.consumers.map(c => c.kubernetesId).filter((id): id is string => !!id),
    );
    const entities = await readableEntitiesByKubernetesId(
      catalog,
      ids,
      credentials,
    );
    return pools.map(({ consumers, ...pool }) => {
      const visible: PoolSummary['consumers'] = [];
      const hidden = { count: 0, units: 0, cents: 0 };
      for (const c of consumers) {
        const match = c.kubernetesId
          ? entities.get(c.kubernetesId)?.find(e => selects(e.selector, c))
          : undefined;
        if (match) {
          visible.push({
            id: c.id,
            entityRef: match.ref,
            units: c.units,
            usdPerMonth: c.usdPerMonth,
          });
        } else {
          // Counted, not named: the pool's figures still add up.
          hidden.count += 1;
          hidden.units += c.units;
          hidden.cents += usdToCents(c.usdPerMonth);
        }
      }
      return {
        ...pool,
        consumers: visible,
        ...(hidden.count > 0
          ? {
              otherConsumers: {
                count: hidden.count,
                units: hidden.units,
                usdPerMonth: centsToUsd(hidden.cents),
              },
            }
          : {}),
      };
    });
  };

  router.get('/pools', async (req, res) => {
    const credentials = await credentialsOf(req);
    const snapshot = options.snapshot();
    const cluster =
      typeof req.query.cluster === 'string' && req.query.cluster !== ''
        ? clusterOf(req.query.cluster).name
        : undefined;
    const pools = queries
      .pools(snapshot)
      .filter(p => !cluster || p.cluster === cluster);
    const body: PoolsResponse = {
      pools: await visiblePools(credentials, pools),
    };
    if (snapshot.revision) body.revision = snapshot.revision;
    res.json(body);
  });

  router.get('/pools/:name', async (req, res) => {
    const credentials = await credentialsOf(req);
    const snapshot = options.snapshot();
    const cluster =
      typeof req.query.cluster === 'string' && req.query.cluster !== ''
        ? clusterOf(req.query.cluster).name
        : undefined;
    const matches = queries
      .pools(snapshot)
      .filter(
        p => p.name === req.params.name && (!cluster || p.cluster === cluster),
      );
    // Same name in several clusters: the default cluster's, unless ?cluster= says otherwise.
    const pool =
      matches.find(p => p.cluster === options.defaultCluster) ?? matches[0];
    if (!pool) throw new NotFoundError(`pool ${req.params.name} not found`);
    const [visible] = await visiblePools(credentials, [pool]);
    res.json(visible);
  });

  router.get('/workloads', async (req, res) => {
    await credentialsOf(req);
    const text = (key: string) => {
      const value = req.query[key];
      return typeof value === 'string' && value !== '' ? value : undefined;
    };
    const name = text('name');
    if (!name) throw new InputError('query parameter name is required');
    const namespace = text('namespace');
    const kind = text('kind');
    if (kind !== undefined && !isWorkloadKind(kind)) {
      throw new InputError(
        `kind must be one of ${WORKLOAD_KINDS.join(', ')}; got "${kind}"`,
      );
    }
    const snapshot = options.snapshot();
    const body: WorkloadsResponse = {
      workloads: (snapshot.workloadObjectsByName.get(name) ?? []).filter(
        w =>
          (namespace === undefined || w.namespace === namespace) &&
          (kind === undefined || w.kind === kind),
      ),
      kinds: [...WORKLOAD_KINDS],
    };
    if (snapshot.revision) body.revision = snapshot.revision;
    res.json(body);
  });

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
        const capabilities = clusterCapabilities(profile, options.gpuCatalog);
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
      const planned = plan(request, check.catalog, cluster, state);
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

  return router;
}
