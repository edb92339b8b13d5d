import {
  getIn,
  isPlainObject,
  parseYamlDocuments,
  SkippedFile,
} from './yamlObjects';

/** The mig-parted config file's entries (under `mig-configs`) by name. */
export function parseMigConfigs(
  path: string,
  text: string,
  skipped: SkippedFile[],
): Record<string, unknown> {
  const migConfigs: Record<string, unknown> = {};
  const { documents, error } = parseYamlDocuments(path, text);
  if (error) skipped.push({ path, reason: error });
  for (const doc of documents) {
    const entries = getIn(doc.value, 'mig-configs');
    if (isPlainObject(entries)) Object.assign(migConfigs, entries);
    else skipped.push({ path, reason: 'no `mig-configs` map' });
  }
  return migConfigs;
}
