import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  formatPlanText,
  plan as planRequest,
  type ClusterProfile,
  type GpuCatalog,
  type GpuRequest,
  type Plan,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import { readRepoState, type RepoTree } from '@gpu-gitops/plugin-gpu-node';
import {
  catalogForOwner,
  checkAllowedChoices,
  checkQuota,
  formatGpus,
  normalizeOwnerRef,
  ruleForOwner,
  throwIfIssues,
} from '../policy/gpuPolicy';
import { gpuUsageOfOwner } from '../policy/gpuUsage';
import { readWorkloadOwners } from '../policy/workloadOwners';
import type { GpuActionServices } from '../services/gpuActionServices';
import {
  gpuRequestFromInput,
  toInputError,
  type GpuRequestInput,
} from './gpuRequestInput';
import { runStage } from './stages';

export interface QuotaUse {
  owner: string;
  /** Physical-GPU equivalents the owner holds elsewhere in the repository. */
  used: number;
  requested: number;
  quota?: number;
}

export interface PlannedGpuRequest {
  request: GpuRequest;
  cluster: ClusterProfile;
  /** The catalog the request was planned with (the owner's allowed models only). */
  catalog: GpuCatalog;
  plan: Plan;
  repoState?: RepoState;
  quota: QuotaUse;
}

/**
 * Validate → plan → guardrails, shared by every GPU action. Pure apart from
 * reading `tree` (the checked-out GitOps repository, when there is one): it
 * never writes, so it is dry-run safe. Every user-fixable problem surfaces as
 * an InputError that names the input.
 */
export async function planGpuRequest(options: {
  input: GpuRequestInput;
  services: GpuActionServices;
  logger: LoggerService;
  tree?: RepoTree;
}): Promise<PlannedGpuRequest> {
  const { input, services, logger, tree } = options;
  const request = gpuRequestFromInput(input);
  const cluster = services.clusters.get(input.cluster);

  let repoState: RepoState | undefined;
  let owners = new Map<string, string>();
  if (tree) {
    const report = await runStage(logger, 'Read GitOps repository state', () =>
      readRepoState(tree, undefined, cluster.name),
    );
    for (const skipped of report.skipped) {
      logger.warn(`Skipped ${skipped.path}: ${skipped.reason}`);
    }
    const { skipped: _skipped, ...state } = report;
    repoState = state;
    owners = await readWorkloadOwners(tree, state.workloads);
    logger.info(
      `Repository has ${state.pools.length} GPU pool(s) and ${state.workloads.length} GPU workload(s) for cluster ${cluster.name}`,
    );
  }

  const owner = normalizeOwnerRef(request.spec.owner);
  const requestedModel = request.spec.gpu.model;
  try {
    // Explicit choices the owner may not make fail before any planning.
    throwIfIssues(
      checkAllowedChoices(services.policy, {
        owner,
        model: requestedModel === 'auto' ? undefined : requestedModel,
        sharing: request.spec.gpu.sharing,
      }),
    );
  } catch (error) {
    throw toInputError(error);
  }
  const catalog = catalogForOwner(services.policy, owner, services.catalog);

  const plan = await runStage(logger, 'Plan', () => {
    try {
      return planRequest(request, catalog, cluster, repoState);
    } catch (error) {
      throw toInputError(error);
    }
  });

  const used = repoState
    ? gpuUsageOfOwner(
        owner,
        repoState,
        services.catalog,
        w => owners.get(w.id),
        `${request.metadata.namespace}/${request.metadata.name}`,
      )
    : 0;
  const quota: QuotaUse = {
    owner,
    used,
    requested: plan.physicalGpus,
    quota: ruleForOwner(services.policy, owner).gpuQuota,
  };
  try {
    throwIfIssues([
      ...checkAllowedChoices(services.policy, {
        owner,
        model: plan.pool.gpuModel,
        sharing: request.spec.gpu.sharing,
      }),
      ...checkQuota(services.policy, owner, used, plan.physicalGpus),
    ]);
  } catch (error) {
    throw toInputError(error);
  }
  return { request, cluster, catalog, plan, repoState, quota };
}

/** The markdown shown on the task page: the plan in words, then the quota. */
export function planSummaryMarkdown(planned: PlannedGpuRequest): string {
  const { quota } = planned;
  const quotaLine =
    quota.quota === undefined
      ? `- GPU use of ${quota.owner}: ${formatGpus(quota.used + quota.requested)} physical-GPU equivalents (no quota)`
      : `- GPU quota of ${quota.owner}: ${formatGpus(quota.used + quota.requested)} of ${formatGpus(quota.quota)} physical-GPU equivalents after this request`;
  return `${formatPlanText(planned.plan)}\n${quotaLine}\n`;
}
