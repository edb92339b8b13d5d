/**
 * The merge engine of a release: the exact file edits that take a request
 * out of a GitOps repository tree (see `planRelease` in gpu-common for what
 * goes). Its record, its workload part, its share of each pool, the pools
 * nobody holds any more and the configs only they selected. Only what the
 * product wrote is removed; hand-written objects, files and comments stay.
 * Nothing is written to `tree`.
 */
import type {
  ClusterProfile,
  ReleasePlan,
  RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import type { GpuPolicy } from '../../policy/gpuPolicy';
import { releaseKueue } from '../kueue/releaseKueue';
import {
  clusterKustomizationPath,
  requestPath,
  resolveLayout,
  type LayoutInput,
} from '../../layout/layout';
import type { RepoTree } from '../../repo/tree';
import { StagedTree } from '../stagedTree';
import type { ChangeSet } from '../types';
import { releaseConfigs } from './releaseConfigs';
import { releasePools } from './releasePools';
import { releaseWorkload } from './releaseWorkload';
import { refreshGpuConfigsDelivery } from '../workloadCluster/gpuConfigsDelivery';

/** @public */
export interface ApplyReleaseInput {
  plan: ReleasePlan;
  cluster: ClusterProfile;
  /** Path templates; the default layout when omitted. */
  layout?: LayoutInput;
  /** The cluster's state before the release and `gpu.policy`: its Kueue queues shrink with it. */
  kueue?: { state: RepoState; policy?: GpuPolicy };
}

/** @public */
export async function applyRelease(
  tree: RepoTree,
  input: ApplyReleaseInput,
): Promise<ChangeSet> {
  const { plan, cluster } = input;
  const layout = resolveLayout(input.layout);
  const staged = new StagedTree(tree);
  await releasePools(staged, layout, cluster, plan.pools);
  await releaseConfigs(staged, layout, cluster, plan);
  await refreshGpuConfigsDelivery(
    staged,
    clusterKustomizationPath(layout, cluster.name),
    cluster,
  );
  await releaseWorkload(staged, layout, plan.request, cluster, plan.pools);
  const { namespace, name } = plan.request.metadata;
  await staged.remove(requestPath(layout, namespace, name));
  if (input.kueue) {
    await releaseKueue(staged, {
      tree,
      layout: input.layout,
      cluster,
      request: plan.request,
      policy: input.kueue.policy,
      state: input.kueue.state,
      plan,
    });
  }
  return staged.toChangeSet();
}
