/**
 * Karpenter's DRA gate on AWS, as a Helm release of the AWS provider's
 * chart sets it, and what the bootstrap pull request says about it. Sources
 * (aws/karpenter-provider-aws v1.15; its chart is not in the snapshot the
 * product was checked against, which ends at v1.14.1, so the value names
 * are the ones gpu-common `cluster/draSettings.ts` cites): the settings
 * reference (karpenter.sh/v1.15/reference/settings: `AWS_FEATURE_GATES`
 * `DRANVIDIAGPU`, default false), the task page "Utilizing GPUs and EFAs
 * with DRA" (Alpha; `settings.enableDRA`) and the chart's `karpenter.dra`
 * helper: `settings.awsFeatureGates.draNVIDIAGPU: true` turns the NVIDIA
 * gate on (and stops ignoring DRA requests); `settings.enableDRA: true`
 * turns it on together with the EFA one.
 */
import {
  karpenterProvisionsDra,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { ValuesLayer } from '../helmReleases/valuesLayer';
import {
  layerToTurnOnIn,
  readGate,
  turnOnAdvice,
  type NodeOverlayGate,
} from './nodeOverlayGate';

/** Where the chart keeps the NVIDIA DRA gate, as a path and as people write it. */
export const DRA_NVIDIA_GATE_VALUE_PATH = [
  'settings',
  'awsFeatureGates',
  'draNVIDIAGPU',
] as const;
export const DRA_NVIDIA_GATE_VALUE_KEY = DRA_NVIDIA_GATE_VALUE_PATH.join('.');

/** The chart's switch for both DRA gates (NVIDIA and EFA). */
const ENABLE_DRA_VALUE_PATH = ['settings', 'enableDRA'] as const;

/** What a release's value sources set the NVIDIA DRA gate to: either value turns it on. */
export function readDraNvidiaGate(layers: ValuesLayer[]): NodeOverlayGate {
  const gate = readGate(layers, DRA_NVIDIA_GATE_VALUE_PATH);
  if (gate.state === 'on') return gate;
  const both = readGate(layers, ENABLE_DRA_VALUE_PATH);
  return both.state === 'on' ? both : gate;
}

/**
 * The gate the cluster profile asks for (`dra.karpenterNvidiaGate`);
 * undefined where it says nothing, or Karpenter is not AWS's.
 */
export function profileDraNvidiaGate(
  cluster: Pick<ClusterProfile, 'provider' | 'dra'>,
): boolean | undefined {
  return cluster.provider === 'aws-karpenter'
    ? cluster.dra?.karpenterNvidiaGate
    : undefined;
}

/**
 * The gate the bootstrap writes in its own release: the profile's, where
 * the pinned Karpenter has it (a value the chart does not know is never
 * written); undefined otherwise.
 */
export function managedDraNvidiaGate(
  cluster: Pick<ClusterProfile, 'provider' | 'dra' | 'karpenterVersion'>,
): boolean | undefined {
  return karpenterProvisionsDra(cluster.karpenterVersion)
    ? profileDraNvidiaGate(cluster)
    : undefined;
}

/** A pinned Karpenter without the gate while the profile asks for it: what to upgrade. */
export function versionWithoutDraGate(
  cluster: Pick<ClusterProfile, 'provider' | 'dra' | 'karpenterVersion'>,
): string[] {
  return profileDraNvidiaGate(cluster) &&
    !karpenterProvisionsDra(cluster.karpenterVersion)
    ? [
        `Karpenter ${cluster.karpenterVersion} has no DRA gate DRANVIDIAGPU (it came in v1.15.0), so the bootstrap writes none although \`dra.karpenterNvidiaGate\` is \`true\`: upgrade Karpenter (profile \`karpenterVersion\`) and run the bootstrap again.`,
      ]
    : [];
}

const profileKey = (cluster: ClusterProfile) =>
  `\`dra.karpenterNvidiaGate\` of the cluster profile \`${cluster.name}\``;

/** What the notes say about the DRA gate of a release the bootstrap never edits. */
export function draGateSentences(
  cluster: ClusterProfile,
  release: { layers: ValuesLayer[]; draGate: NodeOverlayGate },
): string[] {
  const wanted = profileDraNvidiaGate(cluster);
  const gate = release.draGate;
  if (wanted === undefined) return [];
  if (!wanted) {
    return gate.state === 'on'
      ? [
          `**The cluster profile disagrees**: this release turns Karpenter's DRA gate DRANVIDIAGPU on (${gate.setIn.where}) while ${profileKey(cluster)} is \`false\`, so dra requests are planned as static pools; set it to \`true\`.`,
        ]
      : [];
  }
  if (gate.state === 'on') {
    return [`Its DRA gate DRANVIDIAGPU is on (${gate.setIn.where}).`];
  }
  const advice = `**To do**: set ${turnOnAdvice(layerToTurnOnIn(release.layers, gate), DRA_NVIDIA_GATE_VALUE_KEY)}: ${profileKey(cluster)} is \`true\`, and Karpenter launches no node for a pending DRA claim until the gate is on.`;
  switch (gate.state) {
    case 'off':
      return [
        `Its DRA gate DRANVIDIAGPU is off (\`${DRA_NVIDIA_GATE_VALUE_KEY}\` in ${gate.setIn.where}). ${advice}`,
      ];
    case 'chart-default':
      return [
        `Nothing sets its DRA gate DRANVIDIAGPU, and the chart's default is off. ${advice}`,
      ];
    case 'unknown':
      return [
        `Whether its DRA gate DRANVIDIAGPU is on cannot be told: ${gate.why}. ${advice}`,
      ];
    default:
      return [];
  }
}
