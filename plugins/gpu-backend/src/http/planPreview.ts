/**
 * The preview of a GPU request against the allocation index, with the
 * owner's policy and quota checked as the scaffolder actions check them:
 * what POST /plan answers and what the `plan-gpu-request` and
 * `estimate-gpu-request-cost` actions of the actions registry return.
 */
import {
  chooseContainer,
  describeIssue,
  fieldLabel,
  formatPlanText,
  isGpuInputError,
  parseGpuRequest,
  plan,
  planToJson,
  type ClusterProfile,
  type GpuRequest,
  type InputIssue,
  type PlanPreviewResponse,
  type PlanRefusalResponse,
  type QuotaUse,
  type RepoState,
  withSelectorWarnings,
} from '@gpu-gitops/plugin-gpu-common';
import {
  clusterNotBootstrapped,
  EMPTY_POLICY,
  ownerPolicyCheck,
  type RequestQuotaScope,
  withJobTemplateWarningFor,
} from '@gpu-gitops/plugin-gpu-node';
import { findExistingWorkload } from '../allocation/findExistingWorkload';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import type { RouterOptions } from './routeContext';

/** What a preview reads: the index and the configured catalog, clusters and policy. */
export type PlanPreviewSource = Pick<
  RouterOptions,
  'snapshot' | 'gpuCatalog' | 'defaultCluster' | 'policy'
>;

/** A plan of the request, or its refusal: each issue in the form's words. */
export type PlanPreviewOutcome =
  | { planned: true; body: PlanPreviewResponse }
  | { planned: false; body: PlanRefusalResponse };

const NO_STATE: RepoState = {
  pools: [],
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [],
};

/** The refusal of a request: each issue in the form's words, with its path and rule. */
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

/**
 * Where a request's quota is counted, read from the index as the actions
 * read their checkout: the cluster's pools, every GPU workload of the
 * repository, owners from the stored requests.
 */
export function quotaScopeOf(
  source: Pick<PlanPreviewSource, 'defaultCluster'>,
  snapshot: IndexSnapshot,
  cluster: ClusterProfile,
): RequestQuotaScope {
  return {
    cluster: cluster.name,
    state: {
      ...(snapshot.clusters.get(cluster.name)?.repoState ?? NO_STATE),
      workloads: snapshot.workloads,
    },
    isDefaultCluster: cluster.name === source.defaultCluster,
    ownerOf: id => snapshot.requests.get(id)?.request.spec.owner,
  };
}

/**
 * The existing workload the request names, found in the index on `cluster`,
 * with the container that gets the GPU; undefined when it names none or the
 * index has no such workload.
 */
function existingWorkloadOf(
  snapshot: IndexSnapshot,
  request: GpuRequest,
  cluster: ClusterProfile,
) {
  const named = request.spec.workload.existing;
  const found = named
    ? findExistingWorkload(
        snapshot,
        { ...named, namespace: request.metadata.namespace },
        cluster.name,
      )
    : undefined;
  // Refused as the actions refuse it: several containers and none named.
  return (
    found && {
      ...found,
      gpuContainer: chooseContainer(
        { ...found, containers: found.containers.map(name => ({ name })) },
        named?.container,
      ),
    }
  );
}

/**
 * Plans `body` (a GpuRequest) on `cluster` against the current snapshot.
 * Throws only what is not the request's fault.
 */
export function previewPlan(
  source: PlanPreviewSource,
  cluster: ClusterProfile,
  body: unknown,
): PlanPreviewOutcome {
  const policy = source.policy ?? EMPTY_POLICY;
  const snapshot = source.snapshot();
  const indexed = snapshot.clusters.get(cluster.name);
  const state = indexed?.repoState;
  try {
    const request = parseGpuRequest(body);
    // Refused as the actions refuse it: no GPU setup for the cluster yet.
    if (indexed && !indexed.bootstrapped) {
      throw clusterNotBootstrapped(cluster.name, indexed.kustomizationPath);
    }
    // The owner's policy and quota, through the check the actions run.
    const check = ownerPolicyCheck(policy, source.gpuCatalog, request);
    if (check.choiceIssues.length > 0) {
      return { planned: false, body: refusal(check.choiceIssues) };
    }
    const existing = existingWorkloadOf(snapshot, request, cluster);
    const fresh = plan(request, check.catalog, cluster, state);
    // The selectors the patch takes out and a Job's immutable template, in
    // the pull request's words (the index knows no appliers: the step every
    // applier allows).
    const planned = existing
      ? withJobTemplateWarningFor(
          withSelectorWarnings(fresh, cluster, {
            nodeSelector: existing.nodeSelector ?? {},
            ...(existing.requiredNodeSelectorTerms
              ? {
                  requiredNodeSelectorTerms: existing.requiredNodeSelectorTerms,
                }
              : {}),
          }),
          existing,
          [],
        )
      : fresh;
    const { issues, quota } = check.checkPlan(
      planned,
      quotaScopeOf(source, snapshot, cluster),
    );
    if (issues.length > 0) {
      return { planned: false, body: refusal(issues, quota) };
    }
    const preview: PlanPreviewResponse = {
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
    if (existing) {
      const placementWarning = state?.workloads.find(
        w => w.namespace === existing.namespace && w.name === existing.name,
      )?.placementWarning;
      preview.existing = {
        ...existing,
        ...(placementWarning ? { placementWarning } : {}),
      };
    }
    return { planned: true, body: preview };
  } catch (error) {
    if (!isGpuInputError(error)) throw error;
    // The issues name the field and the rule, so the form can mark the field.
    return { planned: false, body: refusal(error.issues) };
  }
}
