/**
 * One request, one pass: read the repository, plan, check the caller's
 * guard (policy, quota), read the existing workload, build the manifests and
 * apply them to the tree. The CLI's `render` and `pr`, the scaffolder actions
 * and the backend's pull-request updater all build a change through here, so
 * every path applies the same rules, and a rebuild on a moved base re-checks
 * everything (the guard included).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildManifests,
  withSelectorWarnings,
  planSteps,
  type ClusterProfile,
  type GpuCatalog,
  type GpuRequest,
  type KueuePlan,
  type ManifestSet,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuildRootOptions } from '../kustomize/buildRoot';
import {
  clusterKustomizationPath,
  workloadDirPath,
  type LayoutInput,
} from '../layout/layout';
import { readRepoState, type RepoStateReport } from '../repo/readRepoState';
import { runStepsInTurns } from '../repo/eventLoopTurns';
import { ReadOnceRepoTree } from '../repo/readOnceTree';
import { FsRepoTree, type RepoTree } from '../repo/tree';
import type { ExistingWorkloadLocation } from '../workloads/resolveExistingWorkload';
import { nfdRulePoolLabels } from '../workloads/nfdRulePoolLabels';
import { reusedPoolNodeLabels } from '../workloads/reusedPoolNodeLabels';
import {
  prepareExistingWorkload,
  type PreparedExistingWorkload,
} from '../workloads/prepareExistingWorkload';
import type { GpuPolicy } from '../policy/gpuPolicy';
import { applyPlan } from './applyPlan';
import { withJobTemplateWarning } from './immutableJobTemplate';
import { keepHandWrittenOverlays } from './handWrittenOverlays';
import { withQueueLabel } from './kueue/queueLabel';
import { requestKueue } from './kueue/requestKueue';
import { clusterNotBootstrapped } from './clusterSetup';
import type { ChangeSet } from './types';
import { verifyChange, type VerifyChangeResult } from './verifyChange';
import { prebuildBaseRoots } from './rootBuilds';
import type { ParseCache } from '../repo/parseCache';
import { withWorkloadClusterWiring } from './workloadCluster/newWorkloadWiring';
import { refuseNewPoolBesideTopology } from './workloadCluster/topologyWorkers';

/** @public */
export interface RequestChange {
  /** What kustomize verified, and the roots it could not (they fail on the base too). */
  verification?: VerifyChangeResult;
  state: RepoStateReport;
  plan: Plan;
  manifests: ManifestSet;
  changeSet: ChangeSet;
  /** The existing workload a patch request changes, as it was before. */
  existing?: PreparedExistingWorkload;
}

/**
 * Called with each plan before anything is built from it (the tree it was
 * read from, for rules that read more, such as owners for quotas); throws a
 * GpuInputError to refuse.
 *
 * @public
 */
export type RequestGuard = (
  plan: Plan,
  state: RepoStateReport,
  tree: RepoTree,
) => void | Promise<void>;

/** @public */
export interface BuildRequestChangeOptions {
  /** The checkout to read (and, for existing workloads, to build with kustomize). */
  tree: RepoTree;
  /** Where `tree` lives on disk; omitted for in-memory trees (copied out when kustomize must read them). */
  dir?: string;
  request: GpuRequest;
  cluster: ClusterProfile;
  catalog: GpuCatalog;
  layout?: LayoutInput;
  /** Read workloads only from these folders (see `readRepoState`). */
  workloadDirs?: string[];
  /** What each file content parsed to before (see `readRepoState`). */
  parseCache?: ParseCache;
  guard?: RequestGuard;
  /**
   * `gpu.policy`: on a cluster that runs Kueue, each team's queue quota is
   * its `gpuQuota` (absent: what its requests hold).
   */
  policy?: GpuPolicy;
  kustomize?: BuildRootOptions;
  /**
   * Build the touched kustomizations before and after with the real kustomize
   * and refuse a change that breaks them or means more than the plan
   * (default true; see `verifyChange`).
   */
  verify?: boolean;
  /** Told what the reader skipped. */
  onSkipped?(path: string, reason: string): void;
  /** Runs each step (for progress logs and timings); steps run plainly without it. */
  stage?: <T>(name: string, step: () => Promise<T>) => Promise<T>;
}

/** Writes an in-memory tree to a temp folder so kustomize can build it. */
async function materialize(tree: RepoTree): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-tree-'));
  const target = new FsRepoTree(dir);
  for (const file of await tree.listFiles('')) {
    const text = await tree.readFile(file);
    if (text !== undefined) await target.writeFile(file, text);
  }
  return dir;
}

/** The manifest document a change edits in place, if the workload is one. */
function patchedInPlace(location: ExistingWorkloadLocation) {
  return location.apply.mode === 'in-place'
    ? { file: location.file, documentIndex: location.documentIndex }
    : undefined;
}

/**
 * The plan, with the labels its pool's nodes carry beyond the built pool's
 * (for the selector rule): a reused pool's as its file says, and those the
 * team's own NFD rules give its GPUs.
 */
async function withPoolNodeLabels(
  tree: RepoTree,
  plan: Plan,
  context: Parameters<typeof nfdRulePoolLabels>[2],
): Promise<Plan> {
  const nodeLabels = {
    ...(await nfdRulePoolLabels(tree, plan, context)),
    ...(await reusedPoolNodeLabels(tree, plan)),
  };
  return Object.keys(nodeLabels).length > 0
    ? { ...plan, pool: { ...plan.pool, nodeLabels } }
    : plan;
}

/**
 * The LocalQueue the workload names. A manifest patched in place gets it
 * too: its record of replaced fields (`replacedFields.ts`) covers
 * `metadata.labels`, so the release gives back the labels it had.
 */
function queueLabelOf(
  kueue: KueuePlan | undefined,
  request: GpuRequest,
): string | undefined {
  const { namespace, name } = request.metadata;
  return kueue?.queueOfRequest.get(`${namespace}/${name}`);
}

/** Runs one named step of the pass (see `BuildRequestChangeOptions.stage`). */
type Stage = NonNullable<BuildRequestChangeOptions['stage']>;

/**
 * The repository's state, with what the reader skipped told to the caller;
 * a cluster not bootstrapped yet has nothing to add a request to.
 */
async function readBootstrappedState(
  tree: RepoTree,
  options: BuildRequestChangeOptions,
  stage: Stage,
): Promise<RepoStateReport> {
  const { cluster, catalog, layout } = options;
  const state = await stage('Read repository state', () =>
    readRepoState(tree, layout, cluster.name, {
      catalog,
      workloadDirs: options.workloadDirs,
      profile: cluster,
      parseCache: options.parseCache,
    }),
  );
  for (const skipped of state.skipped) {
    options.onSkipped?.(skipped.path, skipped.reason);
  }
  if (!state.bootstrapped) {
    throw clusterNotBootstrapped(
      cluster.name,
      clusterKustomizationPath(layout, cluster.name),
    );
  }
  return state;
}

/** What the change applied to the tree, for kustomize to verify. */
interface AppliedRequestChange {
  /** Where the tree lives on disk (the checkout, or its scratch copy). */
  dir: string;
  tree: RepoTree;
  state: RepoStateReport;
  plan: Plan;
  changeSet: ChangeSet;
  existing?: PreparedExistingWorkload;
}

/**
 * Builds the touched kustomizations with kustomize, unless the caller turned
 * verifying off.
 */
async function verifyRequestChange(
  options: BuildRequestChangeOptions,
  stage: Stage,
  applied: AppliedRequestChange,
): Promise<VerifyChangeResult | undefined> {
  if (options.verify === false) return undefined;
  const { dir, tree, state, plan, changeSet, existing } = applied;
  return stage('Verify with kustomize', () =>
    verifyChange({
      dir,
      changeSet,
      plan,
      cluster: options.cluster,
      existing: existing && {
        kind: existing.target.kind,
        name: existing.target.name,
        container: existing.target.container,
        inPlace: patchedInPlace(existing.change.location),
      },
      kustomize: options.kustomize,
      catalog: options.catalog,
      gpuStack: state.gpuStack,
      stage,
      tree,
    }),
  );
}

/**
 * The plan as a Cluster API management repository takes it: a new pool
 * beside a managed topology refused, a new workload's wiring to the
 * workload cluster said; elsewhere as it was.
 */
async function onManagementCluster(
  tree: RepoTree,
  { layout, cluster }: BuildRequestChangeOptions,
  { plan, manifests }: { plan: Plan; manifests: ManifestSet },
): Promise<Plan> {
  await refuseNewPoolBesideTopology(tree, layout, cluster, plan, manifests);
  if (manifests.workload.mode === 'patch') return plan;
  const { namespace, component } = manifests.workload;
  return withWorkloadClusterWiring(
    tree,
    layout,
    cluster,
    plan,
    workloadDirPath(layout, namespace, component),
  );
}

/**
 * The base's build of the cluster's GPU root (nearly every request changes
 * its pools), started while the pass plans: kustomize 4.5.4 spends about a
 * second of CPU on a root holding a NodePool, off the pass's path on a
 * second core. Only for a checkout the verification will build.
 */
function prebuildClusterRoot(
  options: BuildRequestChangeOptions,
  tree: RepoTree,
): Promise<void> {
  if (options.verify === false || options.dir === undefined) {
    return Promise.resolve();
  }
  return prebuildBaseRoots(
    options.dir,
    tree,
    [clusterKustomizationPath(options.layout, options.cluster.name)],
    options.kustomize,
  );
}

/** @public */
export async function buildRequestChange(
  options: BuildRequestChangeOptions,
): Promise<RequestChange> {
  // The reader, the name check and the existing workload read the same files.
  const tree = new ReadOnceRepoTree(options.tree);
  const stage =
    options.stage ?? (<T>(_name: string, step: () => Promise<T>) => step());
  const state = await readBootstrappedState(tree, options, stage);
  const prebuilt = prebuildClusterRoot(options, tree);
  try {
    return await changeOnState(options, tree, stage, state);
  } finally {
    // The checkout stays the base until the base's builds are done.
    await prebuilt;
  }
}

/** The guarded plan, and the Kueue queues its team's quota asks for. */
async function planWithQueues(
  options: BuildRequestChangeOptions,
  tree: ReadOnceRepoTree,
  stage: Stage,
  state: RepoStateReport,
) {
  const { request, cluster, catalog, layout } = options;
  const planned = await stage('Plan', async () => {
    // In turns: a cluster of 2k pools is 80 ms of planning, which would
    // hold the updater's backend in one go.
    const made = await runStepsInTurns(
      planSteps(request, catalog, cluster, state),
    );
    await options.guard?.(made, state, tree);
    return made;
  });
  const kueue = await requestKueue({
    tree,
    layout,
    cluster,
    state,
    plan: planned,
    request,
    policy: options.policy,
  });
  // What Kueue's own setup must hold (DRA mappings) is said where the plan's warnings are.
  if (kueue && kueue.warnings.length > 0) {
    planned.warnings.push(...kueue.warnings);
  }
  return { planned, kueue };
}

/**
 * The plan with what patching the existing workload takes out or cannot do
 * in place said as warnings: its selectors the pool never satisfies, a
 * Job's immutable pod template.
 */
async function withExistingWorkloadWarnings(
  { cluster, catalog, layout }: BuildRequestChangeOptions,
  tree: ReadOnceRepoTree,
  planned: Plan,
  existing: PreparedExistingWorkload,
): Promise<Plan> {
  const labelled = await withPoolNodeLabels(tree, planned, {
    cluster,
    catalog,
    layout,
  });
  return withJobTemplateWarning(
    withSelectorWarnings(labelled, cluster, existing.current),
    existing.change.location,
    tree,
  );
}

/** Plans, guards, renders, applies and verifies the request on the read state. */
async function changeOnState(
  options: BuildRequestChangeOptions,
  tree: ReadOnceRepoTree,
  stage: Stage,
  state: RepoStateReport,
): Promise<RequestChange> {
  const { request, cluster, catalog, layout } = options;
  const { planned, kueue } = await planWithQueues(options, tree, stage, state);

  // kustomize reads from disk: an in-memory tree is copied out once.
  const scratch =
    options.dir === undefined &&
    (request.spec.workload.existing || options.verify !== false)
      ? await materialize(tree)
      : undefined;
  const dir = options.dir ?? scratch;
  try {
    let existing: PreparedExistingWorkload | undefined;
    if (request.spec.workload.existing) {
      existing = await stage('Read the existing workload', () =>
        prepareExistingWorkload({
          dir: dir!,
          tree,
          request,
          cluster,
          layout,
          kustomize: options.kustomize,
        }),
      );
    }
    const selected = existing
      ? await withExistingWorkloadWarnings(options, tree, planned, existing)
      : planned;
    const built = await stage('Build manifests', async () =>
      keepHandWrittenOverlays(
        tree,
        { layout, cluster, catalog, parseCache: options.parseCache },
        selected,
        withQueueLabel(
          buildManifests(selected, cluster, {
            catalog,
            existing: existing?.target,
          }),
          queueLabelOf(kueue, request),
        ),
      ),
    );
    const { manifests } = built;
    const plan = await onManagementCluster(tree, options, built);
    const changeSet = await stage('Apply plan to the repository', () =>
      applyPlan(tree, {
        plan,
        manifests,
        layout,
        cluster,
        existing: existing?.change,
        kueue,
      }),
    );
    const verification = await verifyRequestChange(options, stage, {
      dir: dir!,
      tree,
      state,
      plan,
      changeSet,
      existing,
    });
    return { state, plan, manifests, changeSet, existing, verification };
  } finally {
    if (scratch) await fs.rm(scratch, { recursive: true, force: true });
  }
}
