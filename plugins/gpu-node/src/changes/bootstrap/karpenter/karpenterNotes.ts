/**
 * What the bootstrap pull request tells its reviewer about Karpenter: the
 * release it wrote and what is left to fill in, or the release it found,
 * what that release sets the NodeOverlay gate to, exactly what to set where,
 * and where the cluster profile disagrees. Markdown sentences, one per
 * line of the description's list.
 */
import {
  karpenterHasNodeOverlayGate,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { KarpenterOutcome } from './bootstrapKarpenter';
import {
  DRA_NVIDIA_GATE_VALUE_KEY,
  draGateSentences,
  managedDraNvidiaGate,
  versionWithoutDraGate,
} from './draNvidiaGate';
import type { FoundKarpenterRelease } from './findKarpenterReleases';
import {
  KARPENTER_CHART,
  karpenterChartVersion,
  NODE_OVERLAY_VALUE_KEY,
} from './karpenterChart';
import {
  layerToTurnOnIn,
  turnOnAdvice,
  type NodeOverlayGate,
} from './nodeOverlayGate';

/** The modes whose pods ask for resources only NodeOverlays make Karpenter see (gpu-common `cluster/capabilities.ts`). */
const OVERLAY_MODES = 'time-slicing, MPS and mixed-strategy MIG';

function profileKey(cluster: ClusterProfile): string {
  return `\`nodeOverlay\` of the cluster profile \`${cluster.name}\` (\`gpu.clusters.profiles.${cluster.name}.nodeOverlay\`)`;
}

/** A Karpenter version without the gate: nothing it is set to matters. */
function versionWithoutGate(version: string | undefined): string[] {
  return version !== undefined && karpenterHasNodeOverlayGate(version) === false
    ? [
        `Karpenter ${version} has no NodeOverlay feature gate (it came in v1.7.0): upgrade it before asking for ${OVERLAY_MODES}.`,
      ]
    : [];
}

function gateSentence(
  release: FoundKarpenterRelease,
  gate: NodeOverlayGate,
): string {
  const advice = `**To do**: set ${turnOnAdvice(layerToTurnOnIn(release.layers, gate))}.`;
  switch (gate.state) {
    case 'on':
      return `Its NodeOverlay gate is on (\`${NODE_OVERLAY_VALUE_KEY}\` in ${gate.setIn.where}).`;
    case 'off':
      return `Its NodeOverlay gate is off (\`${NODE_OVERLAY_VALUE_KEY}\` in ${gate.setIn.where}). ${advice}`;
    case 'chart-default':
      return `Nothing sets its NodeOverlay gate, and the chart's default is off. ${advice}`;
    default:
      return `Whether its NodeOverlay gate is on cannot be told: ${gate.why}. ${advice}`;
  }
}

/** Where the profile and the release disagree about the gate. */
function profileSentence(
  cluster: ClusterProfile,
  gate: NodeOverlayGate,
): string[] {
  const off = gate.state === 'off' || gate.state === 'chart-default';
  if (cluster.nodeOverlay && off) {
    return [
      `**The cluster profile disagrees**: ${profileKey(cluster)} is \`true\`, so ${OVERLAY_MODES} requests are planned for this cluster, and their pods stay Pending while this release keeps the gate off.`,
    ];
  }
  if (cluster.nodeOverlay && gate.state === 'unknown') {
    return [
      `${profileKey(cluster)} is \`true\`: make sure the gate is on, or ${OVERLAY_MODES} pods stay Pending.`,
    ];
  }
  if (!cluster.nodeOverlay && gate.state === 'on') {
    return [
      `**The cluster profile disagrees**: ${profileKey(cluster)} is \`false\` while this release turns the gate on; set it to \`true\` and ${OVERLAY_MODES} requests are no longer refused.`,
    ];
  }
  if (!cluster.nodeOverlay) {
    return [
      `${profileKey(cluster)} is \`false\` as well: ${OVERLAY_MODES} requests are refused for this cluster until the gate and the profile are both on.`,
    ];
  }
  return [];
}

function versionSentences(
  cluster: ClusterProfile,
  release: FoundKarpenterRelease,
): string[] {
  const profileVersion = karpenterChartVersion(cluster.karpenterVersion);
  if (release.version === undefined) {
    return [
      `It pins no chart version, so a sync may bring a new Karpenter: pin it to the cluster profile's \`karpenterVersion\`, ${profileVersion}.`,
    ];
  }
  const pinned = karpenterChartVersion(release.version);
  return [
    ...(pinned === profileVersion
      ? []
      : [
          `It pins ${release.version} while the cluster profile says \`karpenterVersion: ${cluster.karpenterVersion}\`, the version the product writes NodePools and NodeOverlays for: align the two.`,
        ]),
    ...versionWithoutGate(release.version),
  ];
}

function handWrittenNotes(
  cluster: ClusterProfile,
  outcome: Extract<KarpenterOutcome, { kind: 'hand-written' }>,
): string[] {
  const notes: string[] = [];
  if (outcome.releases.length > 1) {
    notes.push(
      `${outcome.releases.length} Karpenter releases were found for this cluster, where one Karpenter runs: keep one.`,
    );
  }
  for (const release of outcome.releases) {
    notes.push(
      [
        `Karpenter is installed by ${release.declaredBy} in \`${release.file}\`${release.version ? `, chart version ${release.version}` : ''}; the bootstrap never edits it.`,
        gateSentence(release, release.gate),
        ...profileSentence(cluster, release.gate),
        ...draGateSentences(cluster, release),
        ...versionSentences(cluster, release),
      ].join(' '),
    );
  }
  if (outcome.managedFolder) {
    notes.push(
      `The bootstrap's own Karpenter release in \`${outcome.managedFolder}/\` installs Karpenter a second time: remove that folder.`,
    );
  }
  return notes;
}

/** The DRA gate the bootstrap's release sets, as the profile says; empty where it says nothing. */
function draGateClause(cluster: ClusterProfile): string {
  const draGate = managedDraNvidiaGate(cluster);
  if (draGate === undefined) return '';
  return ` and \`${DRA_NVIDIA_GATE_VALUE_KEY}: ${draGate}\` (the profile's \`dra.karpenterNvidiaGate\`)`;
}

function managedNotes(
  cluster: ClusterProfile,
  outcome: Extract<KarpenterOutcome, { kind: 'managed' }>,
): string[] {
  const { chart, release } = outcome;
  const version = karpenterChartVersion(cluster.karpenterVersion);
  const gate = `\`${NODE_OVERLAY_VALUE_KEY}: ${cluster.nodeOverlay}\`${draGateClause(cluster)}`;
  const notes: string[] = [];
  if (release.change === 'created') {
    notes.push(
      `No Karpenter release was found in the repository, so this pull request adds one in \`${release.folder}/\`: chart \`${KARPENTER_CHART}\` ${version} from \`${chart.repo}\` in \`${chart.namespace}\`, with ${gate} (the cluster profile's \`nodeOverlay\`). It is a kustomize root of its own, built with Helm (\`--enable-helm\`; kustomize v5.2.0 or later for an oci:// chart). If Karpenter is ${chart.runsElsewhere}, remove \`${release.folder}/\` from this pull request and turn the gate on where it runs.`,
    );
  } else {
    const changes = [
      release.before.version !== undefined && release.before.version !== version
        ? `now pins ${version} (was ${release.before.version})`
        : `pins ${version}`,
      release.before.nodeOverlay !== undefined &&
      release.before.nodeOverlay !== cluster.nodeOverlay
        ? `sets ${gate} (was \`${String(release.before.nodeOverlay)}\`)`
        : `sets ${gate}`,
    ];
    notes.push(
      `The bootstrap's Karpenter release in \`${release.folder}/\` ${changes.join(' and ')}, as the cluster profile says.`,
    );
  }
  const blank = chart.requiredValues.filter(v =>
    release.blankRequired.includes(v.path.join('.')),
  );
  const setBlank = blank.length
    ? `set ${blank.map(v => `\`${v.path.join('.')}\` (${v.what})`).join(', ')} in \`${release.folder}/values.yaml\``
    : undefined;
  if (release.change === 'created') {
    notes.push(
      `**Before it syncs**: ${setBlank ? `${setBlank}; add ` : 'add '}${chart.alsoNeeded}.`,
    );
  } else if (setBlank) {
    notes.push(`**Before it syncs**: ${setBlank}.`);
  }
  notes.push(...versionWithoutGate(version));
  notes.push(...versionWithoutDraGate(cluster));
  if (!cluster.nodeOverlay) {
    notes.push(
      `${profileKey(cluster)} is \`false\`: ${OVERLAY_MODES} requests are refused for this cluster until it is \`true\` and the bootstrap runs again.`,
    );
  }
  return notes;
}

/** The description's lines about Karpenter for `outcome`. */
export function karpenterNotes(
  cluster: ClusterProfile,
  outcome: KarpenterOutcome,
): string[] {
  switch (outcome.kind) {
    case 'no-karpenter':
      return [];
    case 'hand-written':
      return handWrittenNotes(cluster, outcome);
    default:
      return managedNotes(cluster, outcome);
  }
}
