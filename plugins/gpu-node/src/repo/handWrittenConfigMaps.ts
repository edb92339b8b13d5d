/**
 * The NVIDIA configs a repository keeps in hand-written ConfigMaps: named
 * device-plugin configs as keys of one ConfigMap (`data: {t4-ts-4: ...,
 * a100-mig: ...}`, selected per node by the label
 * `nvidia.com/device-plugin.config`) and mig-parted configs (a key such as
 * `config.yaml` holding `mig-configs`), whatever the ConfigMaps are named:
 * they are recognised by their content. The product's own configs are files
 * of its layout that a kustomize generator turns into a ConfigMap, never a
 * `kind: ConfigMap` document, so every ConfigMap found here was written by
 * hand. The whole-tree reader, the allocation index and the import read them
 * through here; the product never rewrites them.
 */
import { parse } from 'yaml';
import type { HandWrittenConfigMap } from '@gpu-gitops/plugin-gpu-common';
import {
  asKubernetesObject,
  isPlainObject,
  ParsedDocument,
} from './yamlObjects';

/**
 * Whether a file's text may hold such a ConfigMap (every device-plugin
 * config has `flags` or `sharing`, every mig-parted config `mig-configs`):
 * the readers parse only these among the files of a cluster's folder. A
 * false positive costs a parse; the words are matched without word
 * boundaries because escaped flow strings (`"version: v1\nsharing: ..."`)
 * glue them to the `n` of `\n`.
 */
export function mayHoldGpuConfigMap(text: string): boolean {
  return (
    /\bkind:\s*['"]?ConfigMap\b/.test(text) &&
    /mig-configs|sharing|flags/.test(text)
  );
}

function parsedValue(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return parse(text);
  } catch {
    return undefined; // not YAML: not a config the readers use
  }
}

/** A device-plugin config file (`version: v1` with `flags` or `sharing`). */
function isDevicePluginConfig(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    value.version === 'v1' &&
    (isPlainObject(value.flags) || isPlainObject(value.sharing))
  );
}

/**
 * The ConfigMaps among `docs` that hold device-plugin or mig-parted configs, in document order.
 *
 * @public
 */
export function handWrittenConfigMaps(
  docs: ParsedDocument[],
): HandWrittenConfigMap[] {
  const out: HandWrittenConfigMap[] = [];
  for (const doc of docs) {
    const object = asKubernetesObject(doc.value);
    if (object?.kind !== 'ConfigMap' || !isPlainObject(object.data)) continue;
    const configMap: HandWrittenConfigMap = {
      name: object.metadata.name,
      ...(typeof object.metadata.namespace === 'string'
        ? { namespace: object.metadata.namespace }
        : {}),
      path: doc.path,
      devicePluginConfigs: {},
      migConfigs: {},
    };
    for (const [key, text] of Object.entries(object.data)) {
      const value = parsedValue(text);
      if (isPlainObject(value) && isPlainObject(value['mig-configs'])) {
        Object.assign(configMap.migConfigs, value['mig-configs']);
      } else if (isDevicePluginConfig(value)) {
        configMap.devicePluginConfigs[key] = value;
      }
    }
    if (
      Object.keys(configMap.devicePluginConfigs).length > 0 ||
      Object.keys(configMap.migConfigs).length > 0
    ) {
      out.push(configMap);
    }
  }
  return out;
}

/**
 * Every config of the ConfigMaps by name (the first ConfigMap that names one wins).
 *
 * @public
 */
export function handWrittenConfigsByName(
  configMaps: readonly HandWrittenConfigMap[],
): {
  devicePluginConfigs: Record<string, unknown>;
  migConfigs: Record<string, unknown>;
} {
  const devicePluginConfigs: Record<string, unknown> = {};
  const migConfigs: Record<string, unknown> = {};
  for (const configMap of [...configMaps].reverse()) {
    Object.assign(devicePluginConfigs, configMap.devicePluginConfigs);
    Object.assign(migConfigs, configMap.migConfigs);
  }
  return { devicePluginConfigs, migConfigs };
}
