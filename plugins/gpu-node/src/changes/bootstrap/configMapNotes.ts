/**
 * What the bootstrap pull request says about a ConfigMap the GPU Operator
 * reads that the team wrote by hand: that it stays as it is, and which of
 * its keys (mig-configs entries) requests will use.
 */
import { devicePluginSlicing } from '@gpu-gitops/plugin-gpu-common';
import { getIn } from '../../repo/yamlObjects';
import {
  devicePluginDefaultKey,
  givesWholeGpus,
  migManagerDefaultEntry,
  type OperatorConfigMap,
  type OperatorConfigMaps,
} from './operatorConfigMaps';

const label = ({ ref }: OperatorConfigMap) => `${ref.namespace}/${ref.name}`;

const list = (keys: string[]) => keys.map(key => `\`${key}\``).join(', ');

/**
 * A device-plugin config in a few words, with the resource its pods ask for
 * (its `renameByDefault` decides): `time-slicing, 4 per GPU, as \`nvidia.com/gpu\``.
 */
export function describeConfig(config: unknown): string {
  if (givesWholeGpus(config)) return 'whole GPUs';
  const slicing = devicePluginSlicing(config);
  if (slicing) {
    const words = slicing.mode === 'mps' ? 'MPS' : 'time-slicing';
    return `${words}, ${slicing.replicas} per GPU, as \`${slicing.resourceName}\``;
  }
  for (const [mode, words] of [
    ['timeSlicing', 'time-slicing'],
    ['mps', 'MPS'],
  ] as const) {
    const replicas = getIn(config, 'sharing', mode, 'resources', 0, 'replicas');
    if (replicas !== undefined) return `${words}, ${String(replicas)} per GPU`;
  }
  return 'shared';
}

function devicePluginNote(
  configMap: OperatorConfigMap,
  valuesFile: string | undefined,
): string {
  const { path, devicePluginConfigs } = configMap.handWritten!;
  const keys = Object.keys(devicePluginConfigs)
    .sort()
    .map(key => `\`${key}\` (${describeConfig(devicePluginConfigs[key])})`);
  const defaultKey = devicePluginDefaultKey(configMap);
  let unlabelled = '';
  if (valuesFile) {
    unlabelled = defaultKey
      ? ` GPU nodes without a \`nvidia.com/device-plugin.config\` label get its key \`${defaultKey}\` (\`devicePlugin.config.default\` in \`${valuesFile}\`).`
      : ` It has no key \`default\` that gives whole GPUs, so \`devicePlugin.config.default\` is empty in \`${valuesFile}\`: GPU nodes without a \`nvidia.com/device-plugin.config\` label get the device plugin's own defaults, whole GPUs.`;
  }
  return `The device plugin reads ConfigMap \`${label(configMap)}\`, written by hand in \`${path}\` (the cluster profile's \`devicePluginConfigMap\`): the bootstrap generates no ConfigMap of that name and writes no \`default\` config, and the product never edits it. Requests use only its keys: ${keys.join(', ')}; one that needs another is refused, naming the key and the content to add.${unlabelled}`;
}

function migPartedNote(
  configMap: OperatorConfigMap,
  valuesFile: string | undefined,
): string {
  const { path, migConfigs } = configMap.handWritten!;
  const unlabelled =
    valuesFile && migManagerDefaultEntry(configMap) === ''
      ? ` It has no \`all-disabled\` entry, so \`migManager.config.default\` is empty in \`${valuesFile}\`: the operator labels no MIG-capable node with a default config.`
      : '';
  return `The MIG manager reads ConfigMap \`${label(configMap)}\`, written by hand in \`${path}\` (the cluster profile's \`migPartedConfigMap\`): the bootstrap generates no ConfigMap of that name and adds no \`all-disabled\` entry, and the product never edits it. Requests use only its mig-configs entries: ${list(Object.keys(migConfigs).sort())}; one that needs another is refused, naming the entry and the content to add.${unlabelled}`;
}

/**
 * One note per hand-written ConfigMap the cluster reads; `valuesFile` is
 * the bootstrap's own GPU Operator values, when it writes them.
 */
export function handWrittenConfigMapNotes(
  configMaps: OperatorConfigMaps,
  valuesFile: string | undefined,
): string[] {
  return [
    ...(configMaps.devicePlugin.handWritten
      ? [devicePluginNote(configMaps.devicePlugin, valuesFile)]
      : []),
    ...(configMaps.migParted.handWritten
      ? [migPartedNote(configMaps.migParted, valuesFile)]
      : []),
  ];
}
