import type { GpuModel } from '../catalog/types';
import {
  modeUnavailableForModel,
  unavailableIssue,
} from '../cluster/capabilities';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError } from '../errors';
import type { MigConfigEntry } from '../manifests/types';
import { migConfigName, migResourceName } from '../mig/names';
import { smallestMigProfileFor, uniformMigLayout } from '../mig/select';
import type { GpuRequest } from '../request/types';
import {
  MIG_CONFIG_LABEL,
  ModeDecision,
  WHOLE_GPU_RESOURCE,
  gib,
} from './mode-decision';

/**
 * MIG: each replica gets one instance of the smallest profile whose REAL
 * memory holds the request; every GPU of the pool is filled with that
 * profile (`all-<profile>`), so capacity per node is simple and uniform.
 */
export function decideMig(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
): ModeDecision {
  const { vramGiB } = request.spec.gpu;
  // The rule the request form uses to offer MIG disabled for this model.
  const unsupported = modeUnavailableForModel(model, 'mig');
  if (unsupported) throw new GpuInputError([unavailableIssue(unsupported)]);
  const geometry = model.mig!; // MIG-capable: checked just above
  const profile = smallestMigProfileFor(model, vramGiB);
  if (!profile) {
    const largest = Math.max(...geometry.profiles.map(p => p.memoryMiB));
    throw new GpuInputError([
      {
        path: 'spec.gpu.vramGiB',
        rule: 'mig-profile-too-small',
        message: `no MIG profile of ${model.id} holds ${vramGiB} GiB (largest: ${gib(largest)}); use sharing "exclusive" or a larger GPU`,
      },
    ]);
  }
  const layout = uniformMigLayout(model, profile.name);
  const perGpu = layout[profile.name];
  const configName = migConfigName(layout);
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
    gpuShare: profile.computeSlices / geometry.computeSlices,
    physicalGpusPerReplica: 1 / perGpu,
    poolSuffix: `-mig-${profile.name}`,
    modeLabels: { [MIG_CONFIG_LABEL]: configName },
    warnings,
    explanation: [
      `MIG: ${profile.name} is the smallest ${model.id} profile whose real memory (${gib(profile.memoryMiB)}) holds ${vramGiB} GiB; ${profile.computeSlices}/${geometry.computeSlices} of the compute.`,
      `MIG layout "${configName}": ${perGpu} x ${profile.name} per GPU, applied by mig-manager from node label ${MIG_CONFIG_LABEL}; pods request ${resourceName} (migStrategy ${cluster.migStrategy}).`,
    ],
  };
}
