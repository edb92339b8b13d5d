import type { ClusterGpuStack } from '../cluster/gpuStack';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { MigConfigEntry } from '../manifests/types';
import { operatorDefaultConfigOn } from '../scheduling/operatorDefaultConfig';
import { sameContent } from './contentHash';
import { sameSlicing } from './devicePluginSlicing';
import { planOnFixedConfig } from './fixedConfig';
import type { PoolState, RepoState, SharingPlan } from './types';

/**
 * A reused pool already has nodes running with its config labels. Changing
 * `nvidia.com/mig.config` on a live node makes mig-manager re-partition GPUs
 * under running pods (it does not drain), so a reused MIG pool keeps its
 * config name whenever that config already holds our layout. A changed
 * device-plugin config name is fine (the label change is what makes the
 * plugin reload) but is said out loud.
 */
export function reconcileReusedPoolConfigs(
  pool: PoolState,
  sharing: SharingPlan,
  modeLabels: Record<string, string>,
  repoState: RepoState | undefined,
): { warnings: string[]; explanation: string[] } {
  const warnings: string[] = [];
  const explanation: string[] = [];
  if (
    sharing.mode === 'mig' &&
    pool.migConfigName &&
    sharing.migConfigName &&
    pool.migConfigName !== sharing.migConfigName
  ) {
    const live = repoState?.migConfigs[pool.migConfigName];
    if (holdsLayout(live, sharing.migLayout)) {
      explanation.push(
        `reused pool ${pool.name} keeps its MIG config "${pool.migConfigName}", which already holds this layout (relabeling live nodes would re-partition their GPUs).`,
      );
      sharing.migConfigName = pool.migConfigName;
      sharing.migConfigEntries = live as MigConfigEntry[];
      modeLabels[WELL_KNOWN_KEYS.migConfig] = pool.migConfigName;
    } else {
      warnings.push(
        `Reused pool ${pool.name} switches MIG config "${pool.migConfigName}" -> "${sharing.migConfigName}": mig-manager re-partitions the GPUs of running nodes without draining them; cordon and drain them first.`,
      );
    }
  }
  if (
    (sharing.mode === 'time-slicing' || sharing.mode === 'mps') &&
    pool.deviceConfigName &&
    sharing.deviceConfigName &&
    pool.deviceConfigName !== sharing.deviceConfigName
  ) {
    const live = repoState?.devicePluginConfigs[pool.deviceConfigName];
    if (live !== undefined && sameContent(live, sharing.devicePluginConfig)) {
      sharing.deviceConfigName = pool.deviceConfigName;
      modeLabels[WELL_KNOWN_KEYS.devicePluginConfig] = pool.deviceConfigName;
      explanation.push(
        `reused pool ${pool.name} keeps device-plugin config "${pool.deviceConfigName}" (same content).`,
      );
    } else {
      explanation.push(
        `reused pool ${pool.name} moves from device-plugin config "${pool.deviceConfigName}" to "${sharing.deviceConfigName}": the label change makes the plugin on its nodes reload the new content.`,
      );
    }
  }
  return { warnings, explanation };
}

/** True when a parsed mig-parted config has an entry with exactly this layout. */
export function holdsLayout(
  config: unknown,
  layout: Record<string, number> | undefined,
): boolean {
  if (!Array.isArray(config) || !layout) return false;
  return config.some(
    entry =>
      entry !== null &&
      typeof entry === 'object' &&
      (entry as Record<string, unknown>)['mig-enabled'] === true &&
      sameContent((entry as Record<string, unknown>)['mig-devices'], layout),
  );
}

/**
 * A reused pool whose nodes carry no device-plugin config label already run
 * the GPU Operator's default config. When that default gives the planned
 * sharing, the plan adds no label: a changed NodePool template makes
 * Karpenter replace every node of the pool (drift), for nothing, and the
 * release could not give the pool back as it was. The plan then stands for
 * the default config (its key and content), which the product never writes.
 * Its NodeOverlays stay in the plan (`buildNodeOverlays`): they change no
 * NodePool template, and without them Karpenter counts one resource per
 * physical GPU, so it launches a node per slice pod and never launches one
 * for a pod asking for more slices than an instance type has GPUs.
 * Returns the explanation, or undefined when the pool gets its label.
 */
export function keepOperatorDefaultConfig(
  pool: PoolState,
  sharing: SharingPlan,
  modeLabels: Record<string, string>,
  stack: ClusterGpuStack | undefined,
): string | undefined {
  if (sharing.mode !== 'time-slicing' && sharing.mode !== 'mps') {
    return undefined;
  }
  if (pool.deviceConfigName !== undefined || pool.migConfigName !== undefined) {
    return undefined;
  }
  const fallback = operatorDefaultConfigOn({}, stack);
  if (
    !fallback ||
    !sameSlicing(fallback.content, sharing.devicePluginConfig, {
      sameResourceName: true,
    })
  ) {
    return undefined;
  }
  planOnFixedConfig(sharing, modeLabels, {
    ...fallback,
    by: 'operator-default',
  });
  return `reused pool ${pool.name} keeps its nodes without a ${WELL_KNOWN_KEYS.devicePluginConfig} label: they run the GPU Operator's default config "${fallback.key}" (${stack!.operatorSharesByDefault!.setting}), which already gives this sharing, and a changed NodePool template would replace every node.`;
}
