import { posix } from 'path';
import { isMap, isSeq, YAMLMap } from 'yaml';
import type { ConfigMapRef } from '@gpu-gitops/plugin-gpu-common';
import { conflictError } from '../changes/conflict';
import { ensureSeq, sortSeq, YamlFile } from '../changes/yamlFile';
import { toPlainItem } from './editKustomization';

/**
 * Turns off kustomize's name-suffix hash for every generator of the file
 * (`generatorOptions.disableNameSuffixHash`), as a bootstrapped GPU folder
 * has it: node labels and the GPU Operator's ClusterPolicy name its
 * ConfigMaps, so their names must not change with their content.
 */
export function useStableGeneratorNames(file: YamlFile): void {
  const doc = file.firstMap();
  if (doc.getIn(['generatorOptions', 'disableNameSuffixHash']) === true) {
    return;
  }
  doc.setIn(['generatorOptions', 'disableNameSuffixHash'], true);
  file.modified = true;
}

/**
 * Annotates every object the kustomization's generators make (file-wide
 * `generatorOptions.annotations`), so a generator added later carries it too.
 */
export function annotateGenerated(
  file: YamlFile,
  key: string,
  value: string,
): void {
  const doc = file.firstMap();
  if (doc.getIn(['generatorOptions', 'annotations', key]) === value) return;
  doc.setIn(['generatorOptions', 'annotations', key], value);
  file.modified = true;
}

/**
 * Makes the configMapGenerator entry for `configMap` list `key=file`, with a
 * stable name (`disableNameSuffixHash`) because node labels and the GPU
 * Operator refer to the ConfigMap by name. Entries and files stay sorted.
 */
export function addConfigMapFile(
  file: YamlFile,
  configMap: ConfigMapRef,
  key: string,
  filePath: string,
): void {
  const doc = file.firstMap();
  const generators = ensureSeq(doc, ['configMapGenerator']);
  let generator = generators.items.find(
    item =>
      isMap(item) &&
      item.get('name') === configMap.name &&
      (item.get('namespace') ?? configMap.namespace) === configMap.namespace,
  ) as YAMLMap | undefined;
  // A file-wide generatorOptions.disableNameSuffixHash already gives stable names.
  const globalStableNames =
    doc.getIn(['generatorOptions', 'disableNameSuffixHash']) === true;
  if (!generator) {
    generator = doc.createNode({
      name: configMap.name,
      namespace: configMap.namespace,
      files: [],
      ...(globalStableNames
        ? {}
        : { options: { disableNameSuffixHash: true } }),
    }) as YAMLMap;
    generators.items.push(generator);
    sortSeq(generators, item =>
      String((item as { name?: unknown })?.name ?? ''),
    );
    file.modified = true;
  }
  const index = generators.items.indexOf(generator);
  const entry = `${key}=${filePath}`;
  const files = ensureSeq(doc, ['configMapGenerator', index, 'files']);
  const listed = files.items.map(i =>
    String((i as { value?: unknown }).value ?? i),
  );
  if (!listed.includes(entry)) {
    const clash = listed.find(
      l => l === key || l.startsWith(`${key}=`) || posix.basename(l) === key,
    );
    if (clash) {
      throw conflictError(
        file.path,
        `ConfigMap ${configMap.namespace}/${configMap.name} already has a key "${key}" from "${clash}", not "${filePath}"`,
      );
    }
    files.items.push(doc.createNode(entry));
    sortSeq(files, String);
    file.modified = true;
  }
  if (
    !globalStableNames &&
    doc.getIn([
      'configMapGenerator',
      index,
      'options',
      'disableNameSuffixHash',
    ]) !== true
  ) {
    doc.setIn(
      ['configMapGenerator', index, 'options', 'disableNameSuffixHash'],
      true,
    );
    file.modified = true;
  }
}

/**
 * Removes key `key` from the configMapGenerator entry of `configMap` (the
 * inverse of `addConfigMapFile`); the generator itself stays, even empty of
 * keys: the GPU Operator's ClusterPolicy names the ConfigMap.
 */
export function removeConfigMapFile(
  file: YamlFile,
  configMap: ConfigMapRef,
  key: string,
): void {
  const doc = file.docs.find(d => isMap(d.contents));
  const generators = doc?.get('configMapGenerator', true);
  if (!isSeq(generators)) return;
  const generator = generators.items.find(
    item =>
      isMap(item) &&
      item.get('name') === configMap.name &&
      (item.get('namespace') ?? configMap.namespace) === configMap.namespace,
  ) as YAMLMap | undefined;
  const files = generator?.get('files', true);
  if (!isSeq(files)) return;
  const kept = files.items.filter(item => {
    const entry = String(toPlainItem(item));
    return entry !== key && !entry.startsWith(`${key}=`);
  });
  if (kept.length === files.items.length) return;
  files.items = kept;
  file.modified = true;
}
