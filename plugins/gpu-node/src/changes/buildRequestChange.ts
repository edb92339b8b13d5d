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
  plan as planRequest,
  type ClusterProfile,
  type GpuCatalog,
  type GpuRequest,
  type ManifestSet,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import type { KustomizeBuildOptions } from '../kustomize/build';
import { clusterKustomizationPath, type LayoutInput } from '../layout/layout';
import { readRepoState, type RepoStateReport } from '../repo/readRepoState';
import { FsRepoTree, type RepoTree } from '../repo/tree';
import {
  prepareExistingWorkload,
  type PreparedExistingWorkload,
} from '../workloads/prepareExistingWorkload';
import { applyPlan } from './applyPlan';
import { clusterNotBootstrapped } from './clusterSetup';
import type { ChangeSet } from './types';

export interface RequestChange {
  state: RepoStateReport;
  plan: Plan;
  manifests: ManifestSet;
  changeSet: ChangeSet;
  /** The existing workload a patch request changes, as it was before. */
  existing?: PreparedExistingWorkload;
}

/** Called with each plan before anything is built from it; throws to refuse. */
export type RequestGuard = (
  plan: Plan,
  state: RepoStateReport,
) => void | Promise<void>;

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
  guard?: RequestGuard;
  kustomize?: KustomizeBuildOptions;
  /** Told what the reader skipped. */
  onSkipped?(path: string, reason: string): void;
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

export async function buildRequestChange(
  options: BuildRequestChangeOptions,
): Promise<RequestChange> {
  const { tree, request, cluster, catalog, layout } = options;
  const state = await readRepoState(tree, layout, cluster.name, {
    catalog,
    workloadDirs: options.workloadDirs,
  });
  for (const skipped of state.skipped) {
    options.onSkipped?.(skipped.path, skipped.reason);
  }
  if (!state.bootstrapped) {
    throw clusterNotBootstrapped(
      cluster.name,
      clusterKustomizationPath(layout, cluster.name),
    );
  }
  const plan = planRequest(request, catalog, cluster, state);
  await options.guard?.(plan, state);

  let existing: PreparedExistingWorkload | undefined;
  if (request.spec.workload.existing) {
    const dir = options.dir ?? (await materialize(tree));
    try {
      existing = await prepareExistingWorkload({
        dir,
        tree,
        request,
        cluster,
        kustomize: options.kustomize,
      });
    } finally {
      if (!options.dir) await fs.rm(dir, { recursive: true, force: true });
    }
  }
  const manifests = buildManifests(plan, cluster, {
    catalog,
    existing: existing?.target,
  });
  const changeSet = await applyPlan(tree, {
    plan,
    manifests,
    layout,
    cluster,
    existing: existing?.change,
  });
  return { state, plan, manifests, changeSet, existing };
}
