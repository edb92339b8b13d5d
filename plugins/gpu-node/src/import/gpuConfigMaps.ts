/**
 * The NVIDIA configs a repository keeps in hand-written ConfigMaps: named
 * device-plugin configs as keys of one ConfigMap (`data: {t4-ts-4: ...,
 * a100-mig: ...}`, selected per node by the label
 * `nvidia.com/device-plugin.config`) and mig-parted configs (a `config.yaml`
 * key holding `mig-configs`), whatever the ConfigMaps are named. The import
 * reads them to learn how each pool shares its GPUs; it never rewrites them.
 */
import { parse } from 'yaml';
import {
  asKubernetesObject,
  isPlainObject,
  type ParsedDocument,
} from '../repo/yamlObjects';

export interface NamedGpuConfigs {
  devicePluginConfigs: Record<string, unknown>;
  migConfigs: Record<string, unknown>;
}

function parsedValue(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return parse(text);
  } catch {
    return undefined; // not YAML: not a config the import reads
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

export function namedGpuConfigs(docs: ParsedDocument[]): NamedGpuConfigs {
  const out: NamedGpuConfigs = { devicePluginConfigs: {}, migConfigs: {} };
  for (const doc of docs) {
    const object = asKubernetesObject(doc.value);
    if (object?.kind !== 'ConfigMap' || !isPlainObject(object.data)) continue;
    for (const [key, text] of Object.entries(object.data)) {
      const value = parsedValue(text);
      if (isPlainObject(value) && isPlainObject(value['mig-configs'])) {
        Object.assign(out.migConfigs, value['mig-configs']);
      } else if (isDevicePluginConfig(value)) {
        out.devicePluginConfigs[key] = value;
      }
    }
  }
  return out;
}
