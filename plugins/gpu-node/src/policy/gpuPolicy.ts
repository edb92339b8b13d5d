import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import {
  GpuInputError,
  type GpuCatalog,
  type InputIssue,
  type KueueCohortLimits,
  type QuotaUse,
  type SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import { withoutUndefined } from './withoutUndefined';

/**
 *  What one owner (or every owner, for the defaults) may request.
 *
 * @public
 */
export interface OwnerPolicyRule {
  /** Catalog model ids; undefined = any model. */
  allowedModels?: string[];
  /** undefined = any mode. */
  allowedSharingModes?: SharingMode[];
  /** Physical-GPU equivalents the owner may hold on each cluster; undefined = no quota. */
  gpuQuota?: number;
  /**
   * On a cluster that runs Kueue: how much idle quota of the other teams of
   * the cluster's cohort the owner's queue may borrow, and how much of its own
   * it lends, in physical-GPU equivalents per pool; undefined = no limit.
   */
  kueue?: KueueCohortLimits;
}

/**
 *  The `gpu.policy` config, with owner refs normalised to `kind:namespace/name`.
 *
 * @public
 */
export interface GpuPolicy {
  defaults: OwnerPolicyRule;
  groups: Array<OwnerPolicyRule & { owner: string }>;
}

/** @public */
export const EMPTY_POLICY: GpuPolicy = { defaults: {}, groups: [] };

/**
 * Owner refs arrive as `ml-platform`, `group:ml-platform` or
 * `group:default/ml-platform`; all three must hit the same rule.
 *
 * @public
 */
export function normalizeOwnerRef(owner: string): string {
  return stringifyEntityRef(
    parseEntityRef(owner, {
      defaultKind: 'group',
      defaultNamespace: 'default',
    }),
  );
}

/** The effective rule for an owner: its group rule, field by field over the defaults. */
export function ruleForOwner(
  policy: GpuPolicy,
  owner: string,
): OwnerPolicyRule {
  const ref = normalizeOwnerRef(owner);
  const group = policy.groups.find(g => g.owner === ref);
  const { owner: _owner, ...groupRule } = group ?? { owner: ref };
  return { ...policy.defaults, ...withoutUndefined(groupRule) };
}

/**
 * Model and sharing-mode guardrails. `model` is a concrete model id (the
 * requested one, or the planned one for `auto`); undefined skips the model check.
 */
export function checkAllowedChoices(
  policy: GpuPolicy,
  request: { owner: string; model?: string; sharing: SharingMode },
): InputIssue[] {
  const rule = ruleForOwner(policy, request.owner);
  const issues: InputIssue[] = [];
  if (
    request.model !== undefined &&
    rule.allowedModels &&
    !rule.allowedModels.includes(request.model)
  ) {
    issues.push({
      path: 'spec.gpu.model',
      rule: 'policy-model',
      message: `GPU model ${request.model} is not allowed for ${normalizeOwnerRef(request.owner)}; allowed: ${rule.allowedModels.join(', ') || 'none'}`,
    });
  }
  if (
    rule.allowedSharingModes &&
    !rule.allowedSharingModes.includes(request.sharing)
  ) {
    issues.push({
      path: 'spec.gpu.sharing',
      rule: 'policy-sharing',
      message: `Sharing mode ${request.sharing} is not allowed for ${normalizeOwnerRef(request.owner)}; allowed: ${rule.allowedSharingModes.join(', ') || 'none'}`,
    });
  }
  return issues;
}

/**
 * The catalog an owner plans with: only its allowed models (and the machines
 * that carry them), so `model: auto` never picks a model the owner may not use.
 */
export function catalogForOwner(
  policy: GpuPolicy,
  owner: string,
  catalog: GpuCatalog,
): GpuCatalog {
  const { allowedModels } = ruleForOwner(policy, owner);
  if (!allowedModels) return catalog;
  return {
    models: catalog.models.filter(m => allowedModels.includes(m.id)),
    instanceTypes: catalog.instanceTypes.filter(t =>
      allowedModels.includes(t.gpuModel),
    ),
  };
}

/**
 *  Rounds GPU-equivalents for messages: 3/7 prints as 0.43, not 0.42857142857142855.
 *
 * @public
 */
export function formatGpus(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/**
 * The quota guardrail: refuses a request whose GPUs, with what the owner
 * already holds on the cluster, exceed the owner's quota, saying by how much.
 */
export function checkQuota(use: QuotaUse): InputIssue[] {
  if (use.quota === undefined) return [];
  const total = use.used + use.requested;
  // Tolerance: MIG shares like 3/7 add up with floating-point noise.
  if (total <= use.quota + 1e-9) return [];
  return [
    {
      path: 'spec.gpu.replicas',
      rule: 'policy-quota',
      message:
        `GPU quota exceeded for ${use.owner} on ${use.cluster} by ${formatGpus(total - use.quota)} GPU: ` +
        `quota ${formatGpus(use.quota)}, already used ${formatGpus(use.used)}, ` +
        `this request needs ${formatGpus(use.requested)} (physical-GPU equivalents)`,
    },
  ];
}

/**
 *  Throws a GpuInputError when any issue is present.
 *
 * @public
 */
export function throwIfIssues(issues: InputIssue[]): void {
  if (issues.length > 0) throw new GpuInputError(issues);
}
