/**
 * Everything the product must know about an existing workload before it
 * plans and writes its GPU change: where it is and how the change reaches it,
 * what it looks like today, and which container gets the GPU.
 */
import {
  gpuAnnotationKeys,
  GpuInputError,
  type ClusterProfile,
  type GpuRequest,
  type PatchTarget,
  type WorkloadView,
} from '@gpu-gitops/plugin-gpu-common';
import type { ExistingWorkloadChange } from '../changes/applyExistingWorkload';
import type { KustomizeBuildOptions } from '../kustomize/build';
import type { LayoutInput } from '../layout/layout';
import type { RepoTree } from '../repo/tree';
import { recordedInPatchFile } from '../changes/replicasEntryRecord';
import { chooseContainer, readCurrentWorkload } from './currentWorkload';
import { resolveExistingWorkload } from './resolveExistingWorkload';

/** @public */
export interface PreparedExistingWorkload {
  /** For `applyPlan`: where and how to write. */
  change: ExistingWorkloadChange;
  /** For `buildManifests`: what the patch is built from. */
  target: PatchTarget;
  /** The workload before this request (replicas, containers…), for plans and PR bodies. */
  current: WorkloadView;
  /**
   * The workload as the repository holds it now: `current` plus this
   * request's earlier patch, when there is one. The "before" of a change.
   */
  merged: WorkloadView;
}

/**
 * Reads the existing workload of `request` from the checkout at `dir`
 * (`tree` reads the same checkout). Throws a GpuInputError naming the field
 * and the rule for anything the product cannot patch correctly.
 */
export async function prepareExistingWorkload(options: {
  dir: string;
  tree: RepoTree;
  request: GpuRequest;
  cluster: ClusterProfile;
  /** The repository's layout (default layout if omitted). */
  layout?: LayoutInput;
  kustomize?: KustomizeBuildOptions;
}): Promise<PreparedExistingWorkload> {
  const { dir, tree, request, cluster } = options;
  const existing = request.spec.workload.existing!;
  const location = await resolveExistingWorkload(tree, request, {
    cluster: cluster.name,
    labelDomain: cluster.labelDomain,
    layout: options.layout,
  });
  const { view, merged, ownPatch } = await readCurrentWorkload({
    dir,
    tree,
    location,
    request,
    cluster,
    kustomize: options.kustomize,
  });
  const id = `${request.metadata.namespace}/${request.metadata.name}`;
  const claimedBy =
    view.podAnnotations[gpuAnnotationKeys(cluster.labelDomain).request];
  if (claimedBy !== undefined && claimedBy !== id) {
    throw new GpuInputError([
      {
        path: 'spec.workload.existing.name',
        rule: 'workload-has-gpus',
        message: `${location.kind} "${location.name}" already gets GPUs from request ${claimedBy}: change that request instead of adding a second one`,
      },
    ]);
  }
  const container = chooseContainer(view, existing.container);
  const replicasEntry =
    location.apply.mode === 'patch' ? location.apply.replicasEntry : undefined;
  const replicas = request.spec.gpu.replicas;
  // The team's count: recorded by this request's earlier patch, else as built.
  const recorded = ownPatch
    ? (
        await recordedInPatchFile(
          path => tree.readFile(path),
          ownPatch.file,
          cluster.labelDomain,
        )
      ).find(e => e.file === replicasEntry && e.name === location.name)
    : undefined;
  return {
    change: {
      location,
      ...(ownPatch ? { ownPatch } : {}),
      ...(replicasEntry && (recorded || replicas !== view.replicas)
        ? {
            replicasCount: {
              file: replicasEntry,
              count: replicas,
              before: recorded?.count ?? view.replicas,
            },
          }
        : {}),
    },
    target: {
      kind: location.kind,
      name: location.name,
      ...(location.manifestNamespace !== undefined
        ? { manifestNamespace: location.manifestNamespace }
        : {}),
      container,
      current: view,
      ...(replicasEntry ? { replicasSetByKustomization: true } : {}),
    },
    current: view,
    merged,
  };
}
