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
} from '@gpu-gitops/plugin-gpu-common';
import type { KueueOutcome } from './bootstrapKueue';
import { UNQUOTED_RESOURCE_PREFIXES } from './kueueConfiguration';

/** The `deviceClassMappings` a DRA cluster's Configuration needs, as YAML flow text. */
function mappingsText(): string {
  return kueueDeviceClassMappings()
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
    return [
      `Kueue is installed by ${by} (left as it is): its Configuration must enable the \`deployment\` integration (\`integrations.frameworks\`), as GPU workloads are Deployments labelled with their LocalQueue, and set \`resources.excludeResourcePrefixes: [${UNQUOTED_RESOURCE_PREFIXES.join(', ')}]\`, as the queues quota GPUs only${dra ? `, and set \`resources.deviceClassMappings: [${mappingsText()}]\` for the DRA claims, then restart deployment/kueue-controller-manager (Kueue reads the mappings only at start)` : ''}.`,
    ];
  }
  const { chart } = outcome;
  return [
    `Kueue ${chart.version} is installed by the bootstrap's release in \`${outcome.folder}/\`: chart \`${chart.chart}\` from \`${chart.repo}\` in \`${chart.namespace}\`, its Configuration the chart's default with the \`batch/job\`, \`pod\` and \`deployment\` integrations, \`resources.excludeResourcePrefixes: [${UNQUOTED_RESOURCE_PREFIXES.join(', ')}]\` (the queues quota GPUs only)${dra ? ` and \`resources.deviceClassMappings: [${mappingsText()}]\`, so Kueue counts the DRA pools' claims as their queues do` : ''}. The chart rolls kueue-controller-manager when that Configuration changes.`,
  ];
}
