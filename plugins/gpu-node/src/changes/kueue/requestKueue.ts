/**
 * The queues a request change leaves on a cluster that runs Kueue (profile
 * `kueue: true`): planned from the pools as the change leaves them and the
 * owners' `gpu.policy` quotas (gpu-common `kueue/`), refused when a flavor's
 * quotas exceed what its pool provisions (the ★ rule, `flavorQuotaRule.ts`).
 */
import {
  GpuInputError,
  planKueue,
  stateAfterPlan,
  type ClusterProfile,
  type GpuRequest,
  type KueuePlan,
  type Plan,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import type { LayoutInput } from '../../layout/layout';
import type { RepoTree } from '../../repo/tree';
import { ruleForOwner, type GpuPolicy } from '../../policy/gpuPolicy';
import { ledgerRequestOwners } from './requestOwners';

function ledgerIds(state: RepoState): string[] {
  return state.pools.flatMap(p => (p.ledger ?? []).map(e => e.request));
}

/** Kueue's objects for the cluster after `plan`, or undefined when the cluster runs no Kueue. */
export async function requestKueue(input: {
  tree: RepoTree;
  layout?: LayoutInput;
  cluster: ClusterProfile;
  state: RepoState;
  plan: Plan;
  request: GpuRequest;
  policy?: GpuPolicy;
}): Promise<KueuePlan | undefined> {
  if (!input.cluster.kueue) return undefined;
  const after = stateAfterPlan(input.state, input.plan);
  const owners = await ledgerRequestOwners(
    input.tree,
    ledgerIds(after),
    input.layout,
    input.request,
  );
  const kueue = planKueue({
    cluster: input.cluster,
    state: after,
    ownerOf: id => owners.get(id),
    gpuQuotaOf: owner =>
      input.policy ? ruleForOwner(input.policy, owner).gpuQuota : undefined,
  });
  if (kueue.issues.length > 0) throw new GpuInputError(kueue.issues);
  return kueue;
}
