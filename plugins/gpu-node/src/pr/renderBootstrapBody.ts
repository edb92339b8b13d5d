import type { BootstrapChangeSet } from '../changes/bootstrap/bootstrapChangeSet';

/**
 * The bootstrap pull request's title, as the branch and a recovered task know it.
 *
 * @public
 */
export function bootstrapPullRequestTitle(cluster: string): string {
  return `GPU bootstrap for cluster ${cluster}`;
}

/**
 * The bootstrap pull request's description: what it installs, its notes and its files.
 *
 * @public
 */
export function renderBootstrapBody(
  cluster: string,
  changeSet: BootstrapChangeSet,
): string {
  const operator = operatorLines(changeSet.gpuOperatorRelease);
  return [
    `Prepares cluster **${cluster}** for GPU self-service (once per cluster).`,
    '',
    ...operator,
    ...(PROVIDER_STACK_LINES[changeSet.gpuOperatorRelease]
      ? []
      : [
          '- GPU EC2NodeClass with `al2023@latest` (when the cluster profile generates it).',
        ]),
    ...(changeSet.notes.length > 0
      ? ['', 'Notes:', ...changeSet.notes.map(note => `- ${note}`)]
      : []),
    '',
    'Files:',
    ...changeSet.changes.map(c => `- ${c.action} \`${c.path}\``),
  ].join('\n');
}

/** The providers that run the GPU stack themselves: no GPU Operator, no node class. */
const PROVIDER_STACK_LINES: Partial<
  Record<BootstrapChangeSet['gpuOperatorRelease'], string>
> = {
  'eks-auto-mode':
    '- NVIDIA GPU Operator: none. EKS Auto Mode runs the NVIDIA driver and device plugin on its GPU nodes; only the GPU folder is written.',
  gke: "- NVIDIA GPU Operator: none. GKE runs the NVIDIA driver and device plugin on its GPU nodes and shares their GPUs as each ComputeClass says; only the GPU folder is written.",
};

/** What installs the GPU Operator, in the description's words. */
function operatorLines(
  release: BootstrapChangeSet['gpuOperatorRelease'],
): string[] {
  const providerStack = PROVIDER_STACK_LINES[release];
  if (providerStack) return [providerStack];
  return release === 'bootstrap'
    ? [
        "- NVIDIA GPU Operator: no release of it was found in the repository, so the bootstrap's own is in the cluster's `gpu-operator/` folder (if the operator is installed outside the repository, drop that folder and give that release these values). Its values: operands tolerate the GPU taint and run only on GPU nodes (`nvidia.com/gpu.present`, from NFD `feature.node.kubernetes.io/pci-10de.present`); the operator stays off GPU nodes.",
        '- ClusterPolicy `devicePlugin.config` names the device-plugin ConfigMap (default key `default`), `migManager.config` the mig-parted ConfigMap (default `all-disabled`), `mig.strategy` from the cluster profile.',
        '- DCGM exporter maps `nvidia.com/gpu.shared` pods (`NVIDIA_RESOURCE_NAMES`).',
      ]
    : [
        '- NVIDIA GPU Operator: installed by a release the repository declares, which the bootstrap never edits; the notes say what it sets and what to set in it.',
      ];
}
