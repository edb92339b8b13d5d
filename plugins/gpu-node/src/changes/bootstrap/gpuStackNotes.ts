/**
 * What the bootstrap pull request says about what the repository already
 * runs on the GPU nodes (`readGpuStack`): the device plugin that is not the
 * GPU Operator's, that the bootstrap's own GPU Operator release runs none
 * beside it (nor a second GFD or NFD where that plugin's chart deploys them), and every sharing mode requests will be refused on that
 * cluster, in the planner's own words (`sharingModeUnavailable`).
 */
import {
  poolTaintNotApplied,
  SHARING_MODES,
  sharingModeUnavailable,
  type ClusterGpuStack,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { operatorOperands } from './gpuOperatorValues';

/**
 * What the bootstrap's own GPU Operator release leaves to what already runs
 * on the GPU nodes (`operatorOperands`), in one sentence; undefined when it
 * runs every operand.
 */
function ownReleaseSentence(
  stack: ClusterGpuStack,
  valuesFile: string,
): string | undefined {
  const operands = operatorOperands(stack);
  const off = [
    ...(operands.devicePlugin
      ? []
      : [['no device plugin beside it', 'devicePlugin.enabled']]),
    ...(operands.gfd
      ? []
      : [['no second GPU feature discovery', 'gfd.enabled']]),
    ...(operands.nfd ? [] : [['no second NFD', 'nfd.enabled']]),
  ].map(
    ([what, key], i) =>
      `${what} (\`${key}: false\`${i === 0 ? ` in \`${valuesFile}\`` : ''})`,
  );
  if (off.length === 0) return undefined;
  const runs =
    off.length > 1
      ? `${off.slice(0, -1).join(', ')} and ${off[off.length - 1]}`
      : off[0];
  const prefix = `The bootstrap's GPU Operator release runs ${runs}`;
  const discovery = stack.chartFeatureDiscovery;
  if (!discovery || (operands.gfd && operands.nfd)) {
    return `${prefix}, and keeps GPU feature discovery, the DCGM exporter and the MIG manager.`;
  }
  const kept = [
    ...(operands.devicePlugin ? ['its device plugin'] : []),
    ...(operands.gfd ? ['GPU feature discovery'] : []),
    ...(operands.nfd ? ['its NFD'] : []),
    'the DCGM exporter',
  ];
  return `${prefix}: ${discovery.setting} deploys its own; it keeps ${kept.join(', ')} and the MIG manager.`;
}

/** The standalone chart's NFD cannot label the GPU nodes, so the operator's stays: a second NFD, and how to have one. */
function twoNfdsNote(
  cluster: ClusterProfile,
  stack: ClusterGpuStack,
): string[] {
  const discovery = stack.chartFeatureDiscovery;
  if (!discovery?.nfd || discovery.nfdOnGpuNodes) return [];
  const key = cluster.gpuTaintKey;
  return [
    `Two NFDs run: ${discovery.setting} deploys its own (its NFD subchart), whose workers do not tolerate the taint \`${key}\` of the GPU pools (its \`nfd.worker.tolerations\`), so the bootstrap's GPU Operator keeps its NFD to label the GPU nodes; to run one, add \`{key: ${key}, operator: Exists, effect: NoSchedule}\` to its \`nfd.worker.tolerations\` (or set its \`nfd.enabled: false\`) and run the bootstrap again.`,
  ];
}

export function gpuStackNotes(
  cluster: ClusterProfile,
  stack: ClusterGpuStack,
  /** The bootstrap's own GPU Operator values, when it writes them. */
  valuesFile: string | undefined,
): string[] {
  const notes: string[] = [];
  const plugin = stack.devicePlugin;
  const own = valuesFile ? ownReleaseSentence(stack, valuesFile) : undefined;
  if (plugin) {
    notes.push(
      `The GPU nodes run their own device plugin: ${plugin.setting}. Requests are planned against what it can do.${own ? ` ${own}` : ''}`,
    );
  } else if (own) {
    notes.push(own);
  }
  if (valuesFile) notes.push(...twoNfdsNote(cluster, stack));
  const untainted = poolTaintNotApplied(cluster, stack);
  if (untainted) notes.push(`**To do**: ${untainted}.`);
  for (const mode of SHARING_MODES) {
    const withStack = sharingModeUnavailable(cluster, mode, stack);
    if (!withStack || sharingModeUnavailable(cluster, mode)) continue;
    notes.push(`Requests for ${mode} are refused: ${withStack.reason}.`);
  }
  return notes;
}
