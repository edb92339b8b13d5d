/**
 * What the bootstrap pull request tells its reviewer about Kueue: the
 * release it wrote and the Configuration it sets, the one the repository
 * declares (never edited) and what that one's Configuration must hold (a
 * release of its own left over is retired: `retireBootstrapFolders`).
 * Markdown sentences, one per line of the description's list.
 */
import {
  kueueDeviceClassMappings,
  profileEnablesDra,
  type ClusterProfile,
  type KueueDeviceClassMapping,
} from '@gpu-gitops/plugin-gpu-common';
import type { HelmRelease } from '../helmReleases/helmRelease';
import type { KueueOutcome } from './bootstrapKueue';
import {
  kueueConfigurationGaps,
  UNQUOTED_RESOURCE_PREFIXES,
  type KueueConfigurationGaps,
} from './kueueConfiguration';
import { kueueConfigurationOf } from './repositoryKueue';

/**
 * What the repository's one Kueue Configuration lacks, when the bootstrap
 * can read it; otherwise (the chart's or upstream's default, a hidden
 * source, several releases) everything the queues need is said.
 */
function gapsOf(
  releases: readonly HelmRelease[],
  cluster: ClusterProfile,
): KueueConfigurationGaps {
  const configuration =
    releases.length === 1 ? kueueConfigurationOf(releases[0]) : undefined;
  if (configuration !== undefined) {
    return kueueConfigurationGaps(configuration, cluster);
  }
  return {
    deploymentIntegration: true,
    excludeResourcePrefixes: UNQUOTED_RESOURCE_PREFIXES,
    deviceClassMappings: profileEnablesDra(cluster)
      ? kueueDeviceClassMappings()
      : [],
  };
}

/** What the Configuration must still set, one clause each. */
function gapClauses(gaps: KueueConfigurationGaps): string[] {
  return [
    ...(gaps.deploymentIntegration
      ? [
          'enable the `deployment` integration (`integrations.frameworks`), as GPU workloads are Deployments labelled with their LocalQueue',
        ]
      : []),
    ...(gaps.excludeResourcePrefixes.length > 0
      ? [
          `set \`resources.excludeResourcePrefixes: [${gaps.excludeResourcePrefixes.join(', ')}]\`, as the queues quota GPUs only`,
        ]
      : []),
    ...(gaps.deviceClassMappings.length > 0
      ? [
          `set \`resources.deviceClassMappings: [${mappingsText(gaps.deviceClassMappings)}]\` for the DRA claims, then restart deployment/kueue-controller-manager (Kueue reads the mappings only at start)`,
        ]
      : []),
  ];
}

/** `deviceClassMappings` entries, as YAML flow text. */
function mappingsText(
  mappings: KueueDeviceClassMapping[] = kueueDeviceClassMappings(),
): string {
  return mappings
    .map(
      m =>
        `{name: ${m.name}, deviceClassNames: [${m.deviceClassNames.join(', ')}]}`,
    )
    .join(', ');
}

export function kueueNotes(
  outcome: KueueOutcome,
  cluster: ClusterProfile,
): string[] {
  const dra = profileEnablesDra(cluster);
  // A HelmChartProxy's note is the add-on step's (`addOnProxyNotes`).
  if (outcome.kind === 'off' || outcome.kind === 'proxy') return [];
  if (outcome.kind === 'repository') {
    const by = outcome.declared.map(r => r.declaredBy).join(', ');
    const clauses = gapClauses(gapsOf(outcome.declared, cluster));
    return [
      clauses.length > 0
        ? `Kueue is installed by ${by} (left as it is): its Configuration must ${clauses.join(', and ')}.`
        : `Kueue is installed by ${by} (left as it is): its Configuration holds what the GPU queues need (the \`deployment\` integration, the unquoted resources${dra ? ', the DRA mappings' : ''}).`,
    ];
  }
  const { chart } = outcome;
  return [
    `Kueue ${chart.version} is installed by the bootstrap's release in \`${outcome.folder}/\`: chart \`${chart.chart}\` from \`${chart.repo}\` in \`${chart.namespace}\`, its Configuration the chart's default with the \`batch/job\`, \`pod\` and \`deployment\` integrations, \`resources.excludeResourcePrefixes: [${UNQUOTED_RESOURCE_PREFIXES.join(', ')}]\` (the queues quota GPUs only)${dra ? ` and \`resources.deviceClassMappings: [${mappingsText()}]\`, so Kueue counts the DRA pools' claims as their queues do` : ''}. The chart rolls kueue-controller-manager when that Configuration changes.`,
  ];
}
