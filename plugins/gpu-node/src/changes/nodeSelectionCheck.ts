/**
 * The workload's own node selection after a request: its `nodeSelector`
 * entries and its node affinity are as they were, but for the pool's selector
 * and exactly what the patch takes out because the pool's nodes never satisfy
 * it (gpu-common `existingSelectorPatch`).
 */
import {
  existingSelectorPatch,
  podPlacement,
  strategicMerge,
  type ClusterProfile,
  type Plan,
  type WorkloadView,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn } from '../repo/yamlObjects';
import { deepEqual } from './canonical';

/** The pod-spec fields this check owns. */
export const NODE_SELECTION_FIELDS = ['nodeSelector', 'affinity'];

export function nodeSelectionProblems(
  what: string,
  old: WorkloadView,
  now: WorkloadView,
  podSpecs: { before: unknown; after: unknown },
  plan: Plan,
  cluster: ClusterProfile,
): string[] {
  const problems: string[] = [];
  const planned = existingSelectorPatch(plan, cluster, old);
  const placed = podPlacement(plan, cluster).nodeSelector;
  for (const [key, value] of Object.entries(old.nodeSelector)) {
    if (key in placed || key in planned.deletedSelectors) continue;
    if (now.nodeSelector[key] !== value) {
      problems.push(`${what}: its nodeSelector ${key}: ${value} changed`);
    }
  }
  const before = getIn(podSpecs.before, 'affinity');
  const expected =
    planned.requiredTerms === undefined
      ? before
      : strategicMerge(before, {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution:
              planned.requiredTerms === null
                ? null
                : { nodeSelectorTerms: planned.requiredTerms },
          },
        });
  if (
    !deepEqual(
      withoutEmpty(expected),
      withoutEmpty(getIn(podSpecs.after, 'affinity')),
    )
  ) {
    problems.push(
      `${what}: its affinity changed beyond what the pool cannot satisfy`,
    );
  }
  return problems;
}

/** Maps left empty by a deletion (kustomize drops them, an in-place edit prunes them) count as absent. */
function withoutEmpty(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return value;
  }
  const kept = Object.entries(value)
    .map(([k, v]) => [k, withoutEmpty(v)] as const)
    .filter(([, v]) => v !== undefined);
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}
