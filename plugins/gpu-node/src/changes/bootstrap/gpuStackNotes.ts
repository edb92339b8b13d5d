/**
 * What the bootstrap pull request says about what the repository already
 * runs on the GPU nodes (`readGpuStack`): the device plugin that is not the
 * GPU Operator's, that the bootstrap's own GPU Operator release runs none
 * beside it, and every sharing mode requests will be refused on that
 * cluster, in the planner's own words (`sharingModeUnavailable`).
 */
import {
  SHARING_MODES,
  sharingModeUnavailable,
  type ClusterGpuStack,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';

export function gpuStackNotes(
  cluster: ClusterProfile,
  stack: ClusterGpuStack,
  /** The bootstrap's own GPU Operator values, when it writes them. */
  valuesFile: string | undefined,
): string[] {
  const notes: string[] = [];
  const plugin = stack.devicePlugin;
  if (plugin) {
    const own = valuesFile
      ? ` The bootstrap's GPU Operator release runs no device plugin beside it (\`devicePlugin.enabled: false\` in \`${valuesFile}\`), and keeps GPU feature discovery, the DCGM exporter and the MIG manager.`
      : '';
    notes.push(
      `The GPU nodes run their own device plugin: ${plugin.setting}. Requests are planned against what it can do.${own}`,
    );
  }
  for (const mode of SHARING_MODES) {
    const withStack = sharingModeUnavailable(cluster, mode, stack);
    if (!withStack || sharingModeUnavailable(cluster, mode)) continue;
    notes.push(`Requests for ${mode} are refused: ${withStack.reason}.`);
  }
  return notes;
}
