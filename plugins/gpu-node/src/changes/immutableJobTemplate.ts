/**
 * A change to an existing Job cannot be applied in place: Kubernetes
 * refuses any update of a Job's pod template (`spec.template: Invalid
 * value: … field is immutable`; kubernetes `pkg/apis/batch/validation/validation.go`:
 * `ValidateJobSpecUpdate` calls `validatePodTemplateUpdate`, which checks
 * the template with `ValidateImmutableField` and, with
 * `AllowMutableSchedulingDirectives` (a suspended Job that never started),
 * lets only node affinity, node selector, tolerations, labels, annotations
 * and scheduling gates change — never its containers' resources). So Argo CD or Flux fail to
 * sync the merged change until the Job is deleted and created again, and the
 * new Job runs again from the start. A CronJob's `spec.jobTemplate` may
 * change (its next Jobs take it), so a CronJob gets no such warning.
 *
 * The product says so and names the step for the repository's applier; it
 * never adds a sync option or annotation itself (a field the user did not
 * ask for).
 */
import type { Plan, WorkloadKind } from '@gpu-gitops/plugin-gpu-common';
import type { ApplierTool } from '../repo/clusterAppliers';
import { readGitOpsAppliers } from '../repo/gitOpsAppliers';
import type { RepoTree } from '../repo/tree';


/**
 * The existing workload a change writes, as the warning names it.
 *
 * @public
 */
export interface ChangedWorkload {
  kind: WorkloadKind;
  namespace: string;
  name: string;
}

/**
 * How each applier deletes and recreates an object whose immutable field
 * changed: Argo CD's `Replace=true` with `Force=true` sync options
 * (argo-cd v2.x docs, user-guide/sync-options.md, "Replace Resource Instead
 * Of Applying Changes" and "Force Sync": `kubectl replace --force`, which
 * deletes and creates); Flux's `kustomize.toolkit.fluxcd.io/force: enabled`
 * annotation on the object (kustomize-controller v0.33, fluxcd/kustomize-
 * controller#787: recreates it when an immutable field changed).
 */
const RECREATE_STEP: Record<ApplierTool, string> = {
  argo: 'with Argo CD, sync it once with the `Replace=true` and `Force=true` sync options (they delete and create it)',
  flux: 'with Flux, annotate it `kustomize.toolkit.fluxcd.io/force: enabled` for one reconciliation (Flux then deletes and creates it)',
};

/** The Job warning in the reviewer's words; `tools`: the appliers the repository declares (empty: unknown). */
export function jobTemplateWarning(
  job: Pick<ChangedWorkload, 'namespace' | 'name'>,
  tools: readonly ApplierTool[],
): string {
  const how = [
    'delete the Job so the applier creates it again',
    ...tools.map(tool => RECREATE_STEP[tool]),
  ].join('; or ');
  return (
    `Job \`${job.namespace}/${job.name}\` cannot take this change of its pod template in place: ` +
    'Kubernetes makes a Job’s pod template immutable once the Job is created, ' +
    'so the GitOps applier will refuse to sync it (`spec.template: field is immutable`) while the Job exists, ' +
    'and the Job runs again from the start once recreated. ' +
    `After merging, ${how}. Nothing in the manifest was added for this.`
  );
}

/** The tools of the appliers the repository declares, Argo CD first. */
async function applierTools(tree: RepoTree): Promise<ApplierTool[]> {
  const declared = new Set(
    (await readGitOpsAppliers(tree)).map(applier => applier.tool),
  );
  return (['argo', 'flux'] as const).filter(tool => declared.has(tool));
}

/**
 * The plan, with the Job warning when the change writes an existing Job's
 * pod template; `tools`: the appliers the repository declares (none known:
 * the warning gives the step every applier allows, deleting the Job). The
 * form's preview says it from the index, the pull request from the tree.
 *
 * @public
 */
export function withJobTemplateWarningFor(
  plan: Plan,
  workload: ChangedWorkload,
  tools: readonly ApplierTool[],
): Plan {
  if (workload.kind !== 'Job') return plan;
  const warning = jobTemplateWarning(workload, tools);
  return { ...plan, warnings: [...plan.warnings, warning] };
}

/** {@link withJobTemplateWarningFor}, with the appliers `tree` declares. */
export async function withJobTemplateWarning(
  plan: Plan,
  workload: ChangedWorkload,
  tree: RepoTree,
): Promise<Plan> {
  if (workload.kind !== 'Job') return plan;
  return withJobTemplateWarningFor(plan, workload, await applierTools(tree));
}
