import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  formatPlanText,
  plan as planRequest,
  type ClusterProfile,
  type GpuCatalog,
  type GpuRequest,
  type Plan,
  type QuotaUse,
} from '@gpu-gitops/plugin-gpu-common';
import {
  buildRequestChange,
  formatGpus,
  MemoryRepoTree,
  ownerPolicyCheck,
  readRequestOwners,
  throwIfIssues,
  type RepoStateReport,
  type RepoTree,
  type RequestChange,
  type GpuPolicy,
  type RequestGuard,
} from '@gpu-gitops/plugin-gpu-node';
import type { GpuActionServices } from '../services/gpuActionServices';
import {
  gpuRequestFromInput,
  toInputError,
  type GpuRequestInput,
} from './gpuRequestInput';
import { runStage } from './stages';

/** A request ready to plan and publish: validated, its cluster, its owner's catalog and guard. */
export interface GpuRequestContext {
  request: GpuRequest;
  cluster: ClusterProfile;
  /** The catalog the request is planned with (the owner's allowed models only). */
  catalog: GpuCatalog;
  /** The owner's policy and quota, checked against every plan (rebuilds too). */
  guard: RequestGuard;
  /** `gpu.policy`: a cluster's Kueue queues take the team quotas from it. */
  policy: GpuPolicy;
  /** The quota use the guard saw last (undefined before it ran). */
  quota(): QuotaUse | undefined;
}

export interface PlannedGpuRequest extends Omit<GpuRequestContext, 'quota'> {
  plan: Plan;
  quota: QuotaUse;
  /** The change the request makes to the repository, when one was read. */
  change?: RequestChange;
}

/**
 * Validates the action inputs into a request and refuses, before anything
 * is read, the choices its owner may not make; returns the guard every plan
 * of it must pass. Every user-fixable problem is an InputError naming the input.
 */
export function gpuRequestContext(
  input: GpuRequestInput,
  services: GpuActionServices,
): GpuRequestContext {
  const request = gpuRequestFromInput(input);
  const cluster = services.clusters.get(input.cluster ?? undefined);
  // The one policy and quota check, the gpu backend's POST /plan runs it too.
  const check = ownerPolicyCheck(services.policy, services.catalog, request);
  try {
    throwIfIssues(check.choiceIssues);
  } catch (error) {
    throw toInputError(error);
  }
  let lastQuota: QuotaUse | undefined;
  const guard: RequestGuard = async (plan, state, tree) => {
    const owners = await readRequestOwners(tree, state.workloads);
    const { issues, quota } = check.checkPlan(plan, {
      cluster: cluster.name,
      state,
      isDefaultCluster: cluster.name === services.clusters.defaultName,
      ownerOf: id => owners.get(id),
    });
    lastQuota = quota;
    throwIfIssues(issues);
  };
  return {
    request,
    cluster,
    catalog: check.catalog,
    guard,
    policy: services.policy,
    quota: () => lastQuota,
  };
}

const NOTHING_READ: RepoStateReport = {
  pools: [],
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [],
  skipped: [],
  bootstrapped: false,
};

/**
 * Validate → plan → guard (policy, quota), shared by `gpu:plan` and
 * `gpu:gitops:render`. With a checkout of the GitOps repository it goes the
 * whole way (`buildRequestChange`: existing workload, manifests, change set,
 * optionally the kustomize check), so every refusal surfaces here; it never
 * writes. Without one it plans alone.
 */
export async function planGpuRequest(options: {
  input: GpuRequestInput;
  services: GpuActionServices;
  logger: LoggerService;
  /** A checkout of the repository, and where it is on disk. */
  base?: { tree: RepoTree; dir: string };
  /** Build the touched kustomizations before and after (default false: the publishing step does). */
  verify?: boolean;
}): Promise<PlannedGpuRequest> {
  const { input, services, logger, base } = options;
  const context = gpuRequestContext(input, services);
  const { request, cluster, catalog, guard, policy } = context;
  try {
    if (base) {
      const change = await buildRequestChange({
        tree: base.tree,
        dir: base.dir,
        request,
        cluster,
        catalog,
        guard,
        policy,
        verify: options.verify ?? false,
        onSkipped: (file, reason) => logger.warn(`Skipped ${file}: ${reason}`),
        stage: (name, step) => runStage(logger, name, step),
      });
      return { ...context, plan: change.plan, quota: context.quota()!, change };
    }
    const plan = await runStage(logger, 'Plan', async () =>
      planRequest(request, catalog, cluster),
    );
    // No repository: nothing is used elsewhere, but the rules still hold.
    await guard(plan, NOTHING_READ, new MemoryRepoTree());
    return { ...context, plan, quota: context.quota()! };
  } catch (error) {
    throw toInputError(error);
  }
}

/** The markdown shown on the task page: the plan in words, then the quota. */
export function planSummaryMarkdown(planned: {
  plan: Plan;
  quota: QuotaUse;
}): string {
  const { quota } = planned;
  const quotaLine =
    quota.quota === undefined
      ? `- GPU use of ${quota.owner} on ${quota.cluster}: ${formatGpus(quota.used + quota.requested)} physical-GPU equivalents (no quota)`
      : `- GPU quota of ${quota.owner} on ${quota.cluster}: ${formatGpus(quota.used + quota.requested)} of ${formatGpus(quota.quota)} physical-GPU equivalents after this request`;
  return `${formatPlanText(planned.plan)}\n${quotaLine}\n`;
}
