import { parseYamlFile } from './readDocuments';
import { getIn, isPlainObject, SkippedFile } from './yamlObjects';

/**
 *  The mig-parted config file's entries (under `mig-configs`) by name.
 *
 * @public
 */
export function parseMigConfigs(
  path: string,
  text: string,
  skipped: SkippedFile[],
): Record<string, unknown> {
  const migConfigs: Record<string, unknown> = {};
  for (const doc of parseYamlFile(path, text, skipped)) {
    const entries = getIn(doc.value, 'mig-configs');
    if (isPlainObject(entries)) Object.assign(migConfigs, entries);
    else skipped.push({ path, reason: 'no `mig-configs` map' });
  }
  return migConfigs;
}
