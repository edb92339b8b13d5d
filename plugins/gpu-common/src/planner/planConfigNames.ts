import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { ClusterProfile } from '../cluster/types';
import { nonCollidingConfigName } from './configNames';
import type { PoolState, RepoState, SharingPlan } from './types';
import {
  configMapLabel,
  handWrittenConfigFor,
  isMissing,
  missingHandWrittenConfig,
  useHandWrittenConfig,
  type HandWrittenConfig,
} from './handWrittenConfigs';
import type { ModeDecision } from './modeDecision';

/**
 * Settles the names of the device-plugin and mig-parted configs the plan
 * uses, in `sharing` and the pool's `modeLabels`. A cluster that reads its
 * configs from a ConfigMap written by hand uses the key it holds
 * (handWrittenConfigs.ts) and the product writes no config; otherwise a
 * config name never points at different content already in the repository.
 * Returns the hand-written config used, if any.
 */
export function settleConfigNames(
  reused: PoolState | undefined,
  decision: ModeDecision,
  cluster: ClusterProfile,
  repoState: RepoState | undefined,
  sharing: SharingPlan,
  modeLabels: Record<string, string>,
  explanation: string[],
): HandWrittenConfig | undefined {
  const handWritten = handWrittenConfigFor(
    reused,
    decision,
    cluster,
    repoState,
  );
  if (isMissing(handWritten)) {
    // planForModel never offers such an option; refuse rather than label
    // nodes with a config their device plugin cannot find.
    throw missingHandWrittenConfig(handWritten, cluster);
  }
  if (handWritten) {
    useHandWrittenConfig(handWritten, sharing, modeLabels);
    explanation.push(
      `${handWritten.kind} config "${handWritten.name}": ${handWritten.kind === 'device-plugin' ? 'a key' : 'an entry'} of ConfigMap ${configMapLabel(handWritten.configMap)} (${handWritten.configMap.path}), written by hand, which the cluster's ${handWritten.kind === 'device-plugin' ? 'device plugin' : 'MIG manager'} reads; used as it is (the product never edits that ConfigMap, so this change writes no config).`,
    );
    return handWritten;
  }
  const slots = [
    {
      what: 'device-plugin config',
      name: 'deviceConfigName',
      content: sharing.devicePluginConfig,
      existing: repoState?.devicePluginConfigs,
      label: WELL_KNOWN_KEYS.devicePluginConfig,
    },
    {
      what: 'mig-parted config',
      name: 'migConfigName',
      content: sharing.migConfigEntries,
      existing: repoState?.migConfigs,
      label: WELL_KNOWN_KEYS.migConfig,
    },
  ] as const;
  for (const slot of slots) {
    const current = sharing[slot.name];
    if (!current || !slot.content) continue;
    const name = freeConfigName(
      slot.what,
      current,
      slot.content,
      slot.existing,
      explanation,
    );
    if (name !== current) {
      sharing[slot.name] = name;
      modeLabels[slot.label] = name;
    }
  }
  return undefined;
}

function freeConfigName(
  what: string,
  name: string,
  content: unknown,
  existing: Record<string, unknown> | undefined,
  explanation: string[],
): string {
  const free = nonCollidingConfigName(
    name,
    content,
    existing,
    'spec.gpu.sharing',
    what,
  );
  if (free !== name) {
    explanation.push(
      `${what} "${name}" holds other content in the repository; using "${free}".`,
    );
  }
  return free;
}
