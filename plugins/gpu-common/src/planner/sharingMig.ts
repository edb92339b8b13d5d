import { gpuShareOfUnits } from '../capacity/poolUnits';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { GpuModel, MigProfile } from '../catalog/types';
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
  const asked = formatRequestedGiB(vramGiB);
  // The rule the request form uses to offer MIG disabled for this model.
  const unsupported = modeUnavailableForModel(model, 'mig');
  if (unsupported) throw new GpuInputError([unavailableIssue(unsupported)]);
  const geometry = model.mig!; // MIG-capable: checked just above
  const profile = onPool?.profile ?? smallestMigProfileFor(model, vramGiB);
  if (!profile) {
    const largest = Math.max(...geometry.profiles.map(p => p.memoryMiB));
    throw new GpuInputError([
      {
        path: 'spec.gpu.vramGiB',
        rule: 'mig-profile-too-small',
        message: `no MIG profile of ${model.id} holds ${asked} (largest: ${gib(largest)}); use sharing "exclusive" or a larger GPU`,
      },
    ]);
  }
  const layout = onPool?.layout ?? uniformMigLayout(model, profile.name);
  const perGpu = layout[profile.name];
  const configName = migConfigName(layout, model);
  const entry: MigConfigEntry = {
    devices: 'all',
    'mig-enabled': true,
    'mig-devices': { ...layout },
  };
  if (geometry.pciDeviceIds.length > 0) {
    entry['device-filter'] = [...geometry.pciDeviceIds];
  }
  const resourceName = migResourceName(profile.name, cluster.migStrategy);
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
      migConfigEntries: [entry],
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
    warnings,
    explanation: [
      `MIG: ${profile.name}: ${decision.reason}; ${profile.computeSlices}/${geometry.computeSlices} of the compute.`,
      `MIG layout "${configName}": ${Object.entries(layout)
        .map(([p, n]) => `${n} x ${p}`)
        .join(
          ' + ',
        )} per GPU, applied by mig-manager from node label ${WELL_KNOWN_KEYS.migConfig}; pods request ${resourceName} (migStrategy ${cluster.migStrategy}).`,
    ],
    decision,
  };
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
