/**
 * The bootstrap of a cluster whose provider runs the GPU stack on its GPU
 * nodes itself (EKS Auto Mode, GKE): the GPU folder alone, wired into what
 * applies the cluster, and the bin-packing scheduler when asked. No GPU
 * Operator release (a second device plugin beside the provider's would
 * register the GPUs again), no device-plugin or mig-parted ConfigMap
 * (nothing reads them), no DRA driver, no Karpenter release and no node
 * class; a GPU Operator or device plugin the repository deploys is named,
 * never edited.
 */
import { posix } from 'node:path';
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { clusterScopePath, resolveLayout } from '../../layout/layout';
import { readGpuStack } from '../../repo/gpuStack/readGpuStack';
import type { RepoTree } from '../../repo/tree';
import { StagedTree } from '../stagedTree';
import { writeBootstrapFiles } from './bootstrapFile';
import type {
  BootstrapChangeSet,
  BootstrapOptions,
} from './bootstrapChangeSet';
import { bootstrapPaths } from './bootstrapPaths';
import { mergeGpuKustomization } from './gpuKustomization';
import { clusterReleaseFiles } from './helmReleases/findHelmReleases';
import { bootstrapScheduler } from './scheduler/bootstrapScheduler';
import { wireGpuFolders } from './wiring/wireGpuFolders';
import { bootstrapKueue } from './kueue/bootstrapKueue';
import { kueueNotes } from './kueue/kueueNotes';
import {
  addOnChartFiles,
  addOnChartFolders,
  keptAddOnNotes,
  staleAddOnFolders,
} from './addOnChartOutcome';
import { retireBootstrapFolders } from './retireBootstrapFolders';

/** A provider that runs the NVIDIA driver and device plugin on its GPU nodes, in the pull request's words. */
export interface ProviderGpuStack {
  /** What installs the GPU stack (`BootstrapChangeSet.gpuOperatorRelease`). */
  release: Exclude<
    BootstrapChangeSet['gpuOperatorRelease'],
    'bootstrap' | 'repository'
  >;
  /** What the provider runs and so what the bootstrap does not write, once per bootstrap. */
  note: string;
  /** What to do about a device plugin the repository deploys (`setting` names it). */
  secondPluginNote: (setting: string) => string;
}

export async function buildProviderStackBootstrap(
  tree: RepoTree,
  cluster: ClusterProfile,
  options: BootstrapOptions,
  provider: ProviderGpuStack,
): Promise<BootstrapChangeSet> {
  const staged = new StagedTree(tree);
  const layout = resolveLayout(options.layout);
  const paths = bootstrapPaths(layout, cluster.name);
  const releaseFiles = await clusterReleaseFiles(tree, layout, cluster.name);
  const stack = await readGpuStack(tree, cluster, releaseFiles);
  const scheduler = bootstrapScheduler(
    cluster,
    options.binPacking,
    paths.scheduler,
  );
  const kueue = await bootstrapKueue(staged, paths, cluster, releaseFiles);
  await writeBootstrapFiles(staged, [
    ...(scheduler?.file ? [scheduler.file] : []),
    ...addOnChartFiles(kueue),
  ]);
  await mergeGpuKustomization(
    staged,
    paths,
    {},
    scheduler?.file ? [scheduler.file.path] : [],
  );
  const retired = await retireBootstrapFolders(
    staged,
    staleAddOnFolders(kueue),
    clusterScopePath(layout, cluster.name),
    releaseFiles,
  );
  const wiringNotes = await wireGpuFolders(
    staged,
    layout,
    cluster.name,
    [
      {
        folder: posix.dirname(paths.gpuKustomization),
        what: 'the GPU folder',
        helm: false,
      },
      ...addOnChartFolders(kueue),
    ],
    releaseFiles,
  );
  return {
    ...staged.toChangeSet(),
    gpuOperatorRelease: provider.release,
    notes: [
      provider.note,
      ...(stack.devicePlugins ?? []).map(plugin =>
        provider.secondPluginNote(plugin.setting),
      ),
      ...(scheduler?.notes ?? []),
      ...kueueNotes(kueue, cluster),
      ...keptAddOnNotes(kueue),
      ...retired,
      ...wiringNotes,
    ],
  };
}
