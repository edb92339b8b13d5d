import { gpuShareOfUnits } from '../capacity/poolUnits';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { GpuModel, MigGeometry, MigProfile } from '../catalog/types';
import {
  modeUnavailableForModel,
  unavailableIssue,
} from '../cluster/capabilities';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError } from '../errors';
import { formatRequestedGiB } from '../format/units';
import type { MigConfigEntry } from '../manifests/types';
import { migConfigName, migResourceName } from '../mig/names';
import { isPlainMigProfile } from '../mig/profileName';
import { smallestMigProfileFor, uniformMigLayout } from '../mig/select';
import type { GpuRequest } from '../request/types';
import {
  ModeDecision,
  WHOLE_GPU_RESOURCE,
  gib,
  requestedMiB,
} from './modeDecision';
import type { PlanDecision } from './types';

/** A reused MIG pool: its profile and the per-GPU layout its nodes run. */
export interface MigPoolSlicing {
  pool: string;
  profile: MigProfile;
  layout: Record<string, number>;
}

/**
 * MIG: each replica gets one instance of the smallest profile whose REAL
 * memory holds the request; every GPU of a new pool is filled with that
 * profile (`all-<profile>`), so capacity per node is simple and uniform. On a
 * reused pool (`onPool`) the replica gets the pool's profile, which the caller
 * checked holds the request, and the pool keeps the layout its nodes run:
 * relabeling live MIG nodes re-partitions their GPUs under running pods.
 */
export function decideMig(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
  onPool?: MigPoolSlicing,
): ModeDecision {
  const { vramGiB } = request.spec.gpu;
  const profile = migProfileOf(model, vramGiB, onPool);
  const geometry = model.mig!; // MIG-capable: migProfileOf refuses the others
  const layout = onPool?.layout ?? uniformMigLayout(model, profile.name);
  const perGpu = layout[profile.name];
  const configName = migConfigName(layout, model);
  const resourceName = migResourceName(profile.name, cluster.migStrategy);
  const decision = profileDecision(
    model,
    profile,
    requestedMiB(vramGiB),
    onPool,
  );
  return {
    sharing: {
      mode: 'mig',
      migProfile: profile.name,
      migLayout: layout,
      migConfigName: configName,
      migConfigEntries: [migConfigEntry(layout, geometry)],
    },
    resourceName,
    resourcePerReplica: 1,
    unitsPerGpu: perGpu,
    minGpusPerNode: 1,
    vramGuaranteed: true,
    memoryMiB: profile.memoryMiB,
    // One of the layout's `perGpu` instances of its GPU: what it holds and pays for.
    gpuShare: gpuShareOfUnits(perGpu),
    computeShare: profile.computeSlices / geometry.computeSlices,
    poolSuffix: `-mig-${profile.name}`,
    modeLabels: { [WELL_KNOWN_KEYS.migConfig]: configName },
    warnings: migWarnings(cluster, perGpu),
    explanation: [
      `MIG: ${profile.name}: ${decision.reason}; ${profile.computeSlices}/${geometry.computeSlices} of the compute.`,
      `MIG layout "${configName}": ${layoutText(layout)} per GPU, applied by mig-manager from node label ${WELL_KNOWN_KEYS.migConfig}; pods request ${resourceName} (migStrategy ${cluster.migStrategy}).`,
    ],
    decision,
  };
}

/**
 * The reused pool's profile, else the smallest whose real memory holds the
 * request; refused for a model without MIG (the rule the request form uses
 * to offer MIG disabled) or when no profile holds it.
 */
function migProfileOf(
  model: GpuModel,
  vramGiB: number,
  onPool: MigPoolSlicing | undefined,
): MigProfile {
  const unsupported = modeUnavailableForModel(model, 'mig');
  if (unsupported) throw new GpuInputError([unavailableIssue(unsupported)]);
  const profile = onPool?.profile ?? smallestMigProfileFor(model, vramGiB);
  if (profile) return profile;
  const largest = Math.max(...model.mig!.profiles.map(p => p.memoryMiB));
  throw new GpuInputError([
    {
      path: 'spec.gpu.vramGiB',
      rule: 'mig-profile-too-small',
      message: `no MIG profile of ${model.id} holds ${formatRequestedGiB(vramGiB)} (largest: ${gib(largest)}); use sharing "exclusive" or a larger GPU`,
    },
  ]);
}

/** mig-parted's entry for the layout, on every GPU of the model's PCI device ids when the catalog knows them. */
function migConfigEntry(
  layout: Record<string, number>,
  geometry: MigGeometry,
): MigConfigEntry {
  const entry: MigConfigEntry = {
    devices: 'all',
    'mig-enabled': true,
    'mig-devices': { ...layout },
  };
  if (geometry.pciDeviceIds.length > 0) {
    entry['device-filter'] = [...geometry.pciDeviceIds];
  }
  return entry;
}

/** Reconfiguration does not drain pods; migStrategy "single" counts instances as whole GPUs. */
function migWarnings(cluster: ClusterProfile, perGpu: number): string[] {
  const warnings = [
    'MIG reconfiguration does not drain pods: the layout is applied when a node boots; never relabel nvidia.com/mig.config on a node that runs GPU work (cordon and drain first).',
  ];
  if (cluster.migStrategy === 'single') {
    warnings.push(
      cluster.nodeOverlay
        ? `migStrategy "single" exposes MIG instances as ${WHOLE_GPU_RESOURCE}: the pool's NodeOverlays override ${WHOLE_GPU_RESOURCE} to ${perGpu} per GPU, which Karpenter applies over EC2's physical count.`
        : `migStrategy "single" exposes MIG instances as ${WHOLE_GPU_RESOURCE} and NodeOverlay is off: Karpenter counts physical GPUs and over-provisions until consolidation removes the extra nodes.`,
    );
  }
  return warnings;
}

/** `2 x 3g.20gb + 1 x 1g.10gb`. */
function layoutText(layout: Record<string, number>): string {
  return Object.entries(layout)
    .map(([p, n]) => `${n} x ${p}`)
    .join(' + ');
}

/** Which profile and why, against the model's other plain profiles. */
function profileDecision(
  model: GpuModel,
  chosen: MigProfile,
  vramMiB: number,
  onPool: MigPoolSlicing | undefined,
): PlanDecision {
  const asked = gib(vramMiB);
  const plain = (model.mig?.profiles ?? [])
    .filter(p => isPlainMigProfile(p.name) || p.name === chosen.name)
    .sort(
      (a, b) => a.memoryMiB - b.memoryMiB || a.computeSlices - b.computeSlices,
    );
  const smallest = smallestMigProfileFor(model, vramMiB / 1024);
  const reason = onPool
    ? `the profile of reused pool ${onPool.pool}: its real memory (${gib(chosen.memoryMiB)}) holds the ${asked} asked${smallest && smallest.name !== chosen.name ? ` (a new pool would use ${smallest.name}, ${gib(smallest.memoryMiB)})` : ''}`
    : `the smallest ${model.id} profile whose real memory (${gib(chosen.memoryMiB)}) holds the ${asked} asked`;
  return {
    choice: `MIG profile ${chosen.name} (${gib(chosen.memoryMiB)}, ${chosen.computeSlices}/${model.mig?.computeSlices ?? '?'} of the compute)`,
    reason,
    considered: plain.map(p => ({
      option: `${p.name} (${gib(p.memoryMiB)})`,
      chosen: p.name === chosen.name,
      reason: whyNotProfile(p, chosen, vramMiB, onPool !== undefined),
    })),
  };
}

function whyNotProfile(
  profile: MigProfile,
  chosen: MigProfile,
  vramMiB: number,
  onPool: boolean,
): string {
  if (profile.name === chosen.name) return 'chosen';
  if (profile.memoryMiB < vramMiB) {
    return `${gib(profile.memoryMiB)} is below the ${gib(vramMiB)} asked`;
  }
  const larger =
    profile.memoryMiB > chosen.memoryMiB ||
    (profile.memoryMiB === chosen.memoryMiB &&
      profile.computeSlices > chosen.computeSlices);
  if (larger) return 'larger than needed: fewer instances per GPU';
  return `holds the request, but ${chosen.name} ${onPool ? 'is the reused pool' : 'is smaller'}`;
}
