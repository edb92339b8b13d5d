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
  type KueueDeviceClassMapping,
  type KueuePlan,
  type Plan,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import type { LayoutInput } from '../../layout/layout';
import type { RepoTree } from '../../repo/tree';
import { ruleForOwner, type GpuPolicy } from '../../policy/gpuPolicy';
import { clusterReleaseFiles } from '../bootstrap/helmReleases/findHelmReleases';
import { configuredDeviceClassMappings } from '../bootstrap/kueue/repositoryKueue';
import { ledgerRequestOwners } from './requestOwners';

function ledgerIds(state: RepoState): string[] {
  return state.pools.flatMap(p => (p.ledger ?? []).map(e => e.request));
}

/** What the queues are read from: the cluster, its pools after the change, the owners' policy. */
export interface KueueSources {
  tree: RepoTree;
  layout?: LayoutInput;
  cluster: ClusterProfile;
  /** The request the change is for (its record may not be stored yet). */
  request: GpuRequest;
  policy?: GpuPolicy;
}

/** The queues of the cluster whose pools `after` holds, owners read from the stored requests. */
export async function kueueOfState(
  sources: KueueSources,
  after: RepoState,
  deviceClassMappings?: KueueDeviceClassMapping[],
): Promise<KueuePlan> {
  const owners = await ledgerRequestOwners(
    sources.tree,
    ledgerIds(after),
    sources.layout,
    sources.request,
  );
  const { policy } = sources;
  return planKueue({
    cluster: sources.cluster,
    state: after,
    ownerOf: id => owners.get(id),
    gpuQuotaOf: owner =>
      policy ? ruleForOwner(policy, owner).gpuQuota : undefined,
    cohortLimitsOf: owner =>
      policy ? ruleForOwner(policy, owner).kueue : undefined,
    deviceClassMappings,
  });
}

/** Kueue's objects for the cluster after `plan`, or undefined when the cluster runs no Kueue. */
export async function requestKueue(
  sources: KueueSources & { state: RepoState; plan: Plan },
): Promise<KueuePlan | undefined> {
  if (!sources.cluster.kueue) return undefined;
  // The plan warns only of the DRA mappings the repository's Kueue lacks.
  const mappings = await configuredDeviceClassMappings(
    sources.tree,
    await clusterReleaseFiles(
      sources.tree,
      sources.layout,
      sources.cluster.name,
    ),
  );
  const kueue = await kueueOfState(
    sources,
    stateAfterPlan(sources.state, sources.plan),
    mappings,
  );
  if (kueue.issues.length > 0) throw new GpuInputError(kueue.issues);
  return kueue;
}
