/**
 * The bootstrap of an EKS Auto Mode cluster: the GPU folder alone, wired
 * into what applies the cluster. AWS runs everything else on Auto Mode's GPU
 * nodes (gpu-common `cluster/eksAutoMode.ts` has the sources): the NVIDIA
 * driver and device plugin (not visible as a DaemonSet), the NVIDIA DRA
 * driver on Kubernetes 1.36 and later, and Karpenter with its gates, and the
 * NodeClass is AWS's `default` or the platform team's. So no GPU Operator
 * release (a second device plugin beside AWS's would register the GPUs
 * again), no device-plugin or mig-parted ConfigMap (nothing reads them), no
 * DRA driver, no Karpenter release and no node class are written; a GPU
 * Operator or device plugin the repository deploys is named, never edited.
 */
import { posix } from 'node:path';
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { resolveLayout } from '../../layout/layout';
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

/** What the pull request says about what AWS runs, once per Auto Mode bootstrap. */
export const AUTO_MODE_BOOTSTRAP_NOTE =
  "EKS Auto Mode runs the NVIDIA driver and device plugin on its GPU nodes (the NVIDIA DRA driver too, on Kubernetes 1.36 and later) and runs Karpenter itself: the bootstrap writes no GPU Operator, device-plugin or MIG config, DRA driver, Karpenter release or NodeClass. Requests get whole GPUs, or GPUs claimed through DRA; time-slicing, MPS and MIG are refused there, since AWS's device plugin reads no config of ours.";

/** Device plugins the repository deploys, which would serve Auto Mode's GPU nodes a second time. */
function secondPluginNotes(settings: readonly { setting: string }[]): string[] {
  return settings.map(
    plugin =>
      `${plugin.setting} runs a device plugin beside the one EKS Auto Mode runs on its GPU nodes: both register the GPUs with the kubelet, and which one serves a node changes with restarts; turn it off (the GPU Operator's \`devicePlugin.enabled: false\`) or keep it off Auto Mode nodes (\`eks.amazonaws.com/compute-type: auto\`).`,
  );
}

export async function buildAutoModeBootstrap(
  tree: RepoTree,
  cluster: ClusterProfile,
  options: BootstrapOptions,
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
  await writeBootstrapFiles(staged, scheduler ? [scheduler.file] : []);
  await mergeGpuKustomization(
    staged,
    paths,
    {},
    scheduler ? [scheduler.file.path] : [],
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
    ],
    releaseFiles,
  );
  return {
    ...staged.toChangeSet(),
    gpuOperatorRelease: 'eks-auto-mode',
    notes: [
      AUTO_MODE_BOOTSTRAP_NOTE,
      ...secondPluginNotes(stack.devicePlugins ?? []),
      ...(scheduler?.notes ?? []),
      ...wiringNotes,
    ],
  };
}
