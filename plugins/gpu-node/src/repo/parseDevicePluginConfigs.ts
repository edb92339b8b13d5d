import { isPlainObject, ParsedDocument, SkippedFile } from './yamlObjects';

/**
 * NVIDIA device-plugin sharing configs by name (one file per config key, the
 * name comes from the layout): documents without a `version` are skipped.
 *
 * @public
 */
export function parseDevicePluginConfigs(
  docs: ParsedDocument[],
  configName: (path: string) => string,
  skipped: SkippedFile[],
): Record<string, unknown> {
  const devicePluginConfigs: Record<string, unknown> = {};
  for (const doc of docs) {
    const name = configName(doc.path);
    if (isPlainObject(doc.value) && doc.value.version !== undefined) {
      devicePluginConfigs[name] = doc.value;
    } else {
      skipped.push({
        path: doc.path,
        reason: 'not a device-plugin config (no `version`)',
      });
    }
  }
  return devicePluginConfigs;
}
