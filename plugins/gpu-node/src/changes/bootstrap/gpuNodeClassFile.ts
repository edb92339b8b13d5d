/**
 * The GPU node class file of a bootstrap: the node class the cluster's
 * GPU pools use, unless the cluster's files define it already.
 */
import {
  generatedNodeClass,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { ResolvedRepoLayout } from '../../layout/layout';
import { nodeClassesElsewhere } from '../nodeClasses';
import type { StagedTree } from '../stagedTree';
import {
  bootstrapYaml,
  isBootstrapFile,
  type BootstrapFileWrite,
} from './bootstrapFile';
import type { BootstrapPaths } from './bootstrapPaths';

/** What the node class file says about itself, per kind. */
const NODE_CLASS_COMMENTS: Record<string, string> = {
  EC2NodeClass:
    'EC2NodeClass of the GPU NodePools: al2023@latest picks the NVIDIA AMI variant per instance type.',
  AKSNodeClass:
    'AKSNodeClass of the GPU NodePools: AKS installs the NVIDIA driver (gpu.mode Driver).',
};

/**
 * The GPU node class file the bootstrap writes, or none. The bootstrap is
 * where the GPU node class comes from, whatever the profile says about
 * generating one per pool; but never a second copy of one the cluster's
 * files define already (kustomize rejects duplicate objects), a
 * hand-written file in its place included.
 */
export async function gpuNodeClassFile(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  paths: BootstrapPaths,
  cluster: ClusterProfile,
): Promise<BootstrapFileWrite | undefined> {
  const nodeClassPath = paths.nodeClass(cluster.nodeClass.name);
  const nodeClass = generatedNodeClass({ ...cluster, generateNodeClass: true });
  const ownNodeClassFile = isBootstrapFile(await staged.read(nodeClassPath));
  if (
    nodeClass &&
    !(
      await nodeClassesElsewhere(
        staged,
        layout,
        cluster.name,
        ownNodeClassFile ? nodeClassPath : '',
      )
    ).has(`${nodeClass.kind}/${cluster.nodeClass.name}`)
  ) {
    return {
      path: nodeClassPath,
      content: bootstrapYaml(nodeClass, NODE_CLASS_COMMENTS[nodeClass.kind]),
      what: `the GPU ${nodeClass.kind} \`${cluster.nodeClass.name}\``,
      remedy: `Move it, or define the ${nodeClass.kind} \`${cluster.nodeClass.name}\` in it (the bootstrap then keeps that one), then run the bootstrap again.`,
    };
  }
  return undefined;
}
