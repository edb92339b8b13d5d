/**
 * An owner's policy and quota against one request: the ONE check behind the
 * scaffolder actions' guard (on every plan, rebuilds included) and the gpu
 * backend's `POST /plan` preview, so the form's preview refuses exactly what
 * the actions would refuse, for the same reason and with the same numbers.
 */
import type {
  GpuCatalog,
  GpuRequest,
  InputIssue,
  Plan,
  QuotaUse,
} from '@gpu-gitops/plugin-gpu-common';
import {
  catalogForOwner,
  checkAllowedChoices,
  checkQuota,
  normalizeOwnerRef,
  ruleForOwner,
  type GpuPolicy,
} from './gpuPolicy';
import { gpuUsageOfOwner, type QuotaScope } from './gpuUsage';

/**
 *  Where a request lands, for its quota: the cluster and what the repository holds there.
 *
 * @public
 */
export interface RequestQuotaScope extends QuotaScope {
  cluster: string;
  /** Who owns a GPU workload (`<namespace>/<name>`): the owner of its stored GpuRequest. */
  ownerOf(workloadId: string): string | undefined;
}

/** @public */
export interface OwnerPolicyCheck {
  /** The request's owner, normalised (`group:default/ml-platform`). */
  owner: string;
  /** The catalog to plan with: the owner's allowed models only, so `auto` never picks another. */
  catalog: GpuCatalog;
  /** The explicit choices (model, sharing mode) the owner may not make: refused before anything is read. */
  choiceIssues: InputIssue[];
  /** The plan against the policy (the planned model, for `auto`) and the quota on its cluster. */
  checkPlan(
    plan: Plan,
    scope: RequestQuotaScope,
  ): { issues: InputIssue[]; quota: QuotaUse };
}

/**
 *  What the owner holds on a cluster, and its quota there (`requested` is 0).
 *
 * @public
 */
export function quotaUseOf(
  policy: GpuPolicy,
  owner: string,
  scope: RequestQuotaScope,
  excludeId?: string,
): QuotaUse {
  const ref = normalizeOwnerRef(owner);
  const use: QuotaUse = {
    owner: ref,
    cluster: scope.cluster,
    used: gpuUsageOfOwner(ref, scope, scope.ownerOf, excludeId),
    requested: 0,
  };
  const { gpuQuota } = ruleForOwner(policy, ref);
  if (gpuQuota !== undefined) use.quota = gpuQuota;
  return use;
}

/** @public */
export function ownerPolicyCheck(
  policy: GpuPolicy,
  catalog: GpuCatalog,
  request: GpuRequest,
): OwnerPolicyCheck {
  const owner = normalizeOwnerRef(request.spec.owner);
  const { model, sharing } = request.spec.gpu;
  // The workload this request creates or replaces: never counted twice.
  const workloadId = `${request.metadata.namespace}/${request.metadata.name}`;
  return {
    owner,
    catalog: catalogForOwner(policy, owner, catalog),
    choiceIssues: checkAllowedChoices(policy, {
      owner,
      model: model === 'auto' ? undefined : model,
      sharing,
    }),
    checkPlan(plan, scope) {
      const quota: QuotaUse = {
        ...quotaUseOf(policy, owner, scope, workloadId),
        requested: plan.physicalGpus,
      };
      return {
        quota,
        issues: [
          ...checkAllowedChoices(policy, {
            owner,
            model: plan.pool.gpuModel,
            sharing,
          }),
          ...checkQuota(quota),
        ],
      };
    },
  };
}
