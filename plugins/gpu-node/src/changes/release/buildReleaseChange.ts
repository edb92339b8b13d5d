/**
 * One release, one pass: read the request's record from the repository,
 * read the repository state of its cluster, plan the release, apply it to
 * the tree and verify it with the real kustomize. The CLI's `release`, the
 * `gpu:gitops:release` action and the expiry scheduler all build a release
 * through here (via `publishGpuRelease`).
 */
import {
  parseGpuRequestYaml,
  planRelease,
  requestNotHeld,
  type ClusterProfile,
  type GpuCatalog,
  type GpuRequest,
  type ReleaseLeftObject,
  type ReleasePlan,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuildRootOptions } from '../../kustomize/buildRoot';
import type { GpuPolicy } from '../../policy/gpuPolicy';
import { requestPath, type LayoutInput } from '../../layout/layout';
import { readRepoState } from '../../repo/readRepoState';
import type { RepoTree } from '../../repo/tree';
import type { ChangeSet } from '../types';
import type { VerifyChangeResult } from '../verifyChange';
import { applyRelease } from './applyRelease';
import { objectsLeftByRelease } from './objectsLeft';
import { verifyRelease } from './verifyRelease';
import type { ParseCache } from '../../repo/parseCache';

/**
 * `<namespace>/<name>` of the request to release.
 *
 * @public
 */
export interface RequestRef {
  namespace: string;
  name: string;
}

/** @public */
export interface BuildReleaseChangeOptions {
  /** The checkout to read (on disk at `dir`, which kustomize builds). */
  tree: RepoTree;
  dir: string;
  request: RequestRef;
  /** The profile of the cluster the stored request names (`spec.cluster`). */
  clusterProfile: (name: string | undefined) => ClusterProfile;
  catalog: GpuCatalog;
  layout?: LayoutInput;
  /** Where the tree comes from, for the message when the request is not in it (e.g. `main of <repo>`). */
  where?: string;
  kustomize?: BuildRootOptions;
  /** Build touched roots before and after with the real kustomize (default true). */
  verify?: boolean;
  stage?: <T>(name: string, step: () => Promise<T>) => Promise<T>;
  /** `gpu.policy`: on a cluster that runs Kueue, the team quotas of its queues. */
  policy?: GpuPolicy;
  /** What each file content parsed to before (see `readRepoState`). */
  parseCache?: ParseCache;
}

/** @public */
export interface ReleaseChange {
  /** The request as the repository stored it. */
  request: GpuRequest;
  cluster: ClusterProfile;
  plan: ReleasePlan;
  changeSet: ChangeSet;
  /** Objects the product did not write beside the workload it created: they stay, and are named. */
  leaves: ReleaseLeftObject[];
  verification?: VerifyChangeResult;
}

/** @public */
export async function buildReleaseChange(
  options: BuildReleaseChangeOptions,
): Promise<ReleaseChange> {
  const { tree, layout } = options;
  const stage =
    options.stage ?? (<T>(_name: string, step: () => Promise<T>) => step());
  const { namespace, name } = options.request;
  const id = `${namespace}/${name}`;
  const recordPath = requestPath(layout, namespace, name);
  const record = await tree.readFile(recordPath);
  if (record === undefined) {
    throw requestNotHeld(
      id,
      options.where ?? 'the repository',
      `there is no ${recordPath}. Either its pull request is not merged yet (merge or close it first), or it was released already.`,
    );
  }
  const request = parseGpuRequestYaml(record);
  const cluster = options.clusterProfile(request.spec.cluster);
  const state = await stage('Read repository state', () =>
    readRepoState(tree, layout, cluster.name, {
      catalog: options.catalog,
      parseCache: options.parseCache,
    }),
  );
  const plan = await stage('Plan the release', async () =>
    planRelease(request, options.catalog, cluster, state),
  );
  const changeSet = await stage('Apply the release to the repository', () =>
    applyRelease(tree, {
      plan,
      cluster,
      layout,
      kueue: { state, policy: options.policy },
    }),
  );
  const verification =
    options.verify === false
      ? undefined
      : await stage('Verify with kustomize', () =>
          verifyRelease({
            dir: options.dir,
            tree,
            changeSet,
            plan,
            cluster,
            kustomize: options.kustomize,
          }),
        );
  const leaves = await objectsLeftByRelease(tree, layout, request, changeSet);
  return { request, cluster, plan, changeSet, leaves, verification };
}
