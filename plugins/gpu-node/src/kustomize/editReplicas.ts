import { isMap, YAMLMap } from 'yaml';
import { ensureSeq, YamlFile } from '../changes/yamlFile';

/**
 * Sets the count of `name`'s entry in the kustomization's `replicas:` list.
 * Kustomize applies that list after every patch, so a changed replica count
 * of a workload the overlay scales this way goes here.
 */
export function setReplicasCount(
  file: YamlFile,
  name: string,
  count: number,
): void {
  const doc = file.firstMap();
  const seq = ensureSeq(doc, ['replicas']);
  const entry = seq.items.find(
    (item): item is YAMLMap => isMap(item) && item.get('name') === name,
  );
  if (!entry) {
    throw new Error(`${file.path} has no replicas entry for "${name}"`);
  }
  if (entry.get('count') === count) return;
  entry.set('count', count);
  file.modified = true;
}
