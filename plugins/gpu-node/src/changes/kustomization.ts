import { posix } from 'path';
import { isMap, isSeq, parseDocument, YAMLMap } from 'yaml';
import type { ConfigMapRef } from '@gpu-gitops/plugin-gpu-common';
import { resolveEntry } from '../kustomize/entryPaths';
import { kustomizationFolder } from '../kustomize/fileNames';
import { kustomizationPatchEntries } from '../kustomize/patchEntries';
import { conflictError } from './conflict';
import { ensureSeq, sortSeq, YamlFile } from './yamlFile';

const KUSTOMIZATION_HEADER = {
  apiVersion: 'kustomize.config.k8s.io/v1beta1',
  kind: 'Kustomization',
};

/** Opens (or starts) a kustomization.yaml; an empty file becomes a Kustomization. */
export function openKustomization(
  path: string,
  text: string | undefined,
): YamlFile {
  const file = YamlFile.parse(path, text);
  const doc = file.firstMap();
  if (!doc.has('kind')) {
    const map = doc.contents as YAMLMap;
    // Header first, before anything the file already holds.
    map.items.unshift(doc.createPair('kind', KUSTOMIZATION_HEADER.kind));
    map.items.unshift(
      doc.createPair('apiVersion', KUSTOMIZATION_HEADER.apiVersion),
    );
    file.modified = true;
  }
  return file;
}

/** Path of `target` relative to the folder of `kustomizationPath`. */
export function relativeTo(kustomizationPath: string, target: string): string {
  return posix.relative(posix.dirname(kustomizationPath), target);
}

/** Adds `entry` to `resources` (kept sorted) unless already listed. */
export function addResource(file: YamlFile, entry: string): void {
  const doc = file.firstMap();
  const seq = ensureSeq(doc, ['resources']);
  const present = seq.items.some(
    i => String((i as { value?: unknown }).value ?? i) === entry,
  );
  if (present) return;
  // `resources: []` becomes a block list once it has entries.
  seq.flow = false;
  seq.items.push(doc.createNode(entry));
  sortSeq(seq, String);
  file.modified = true;
}

/** A resources entry as kustomize resolves it: no leading `./`, no trailing `/`. */
const bareEntry = (value: unknown) =>
  String(value).replace(/^\.\//, '').replace(/\/+$/, '');

/** Where the line holding `offset` ends (its newline), or the text's end. */
function lineEnd(text: string, offset: number): number {
  const at = text.indexOf('\n', offset);
  return at < 0 ? text.length : at;
}

/**
 * `text` of a kustomization the product does not manage with `entry` added
 * to its `resources`, by inserting one line (or one flow item) and leaving
 * every other byte as the team wrote it: re-serializing would re-indent,
 * re-quote and re-order their entries. The entry goes last, in the style of
 * the list (its indent and dash). Undefined when it is listed already;
 * refused, naming the file, when the file does not parse.
 */
export function insertResource(
  path: string,
  text: string,
  entry: string,
): string | undefined {
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || !isMap(doc.contents)) {
    throw conflictError(
      path,
      `cannot add ${entry} to the resources of ${path}: it is not a kustomization that parses (${doc.errors[0]?.message.split('\n')[0] ?? 'no map'})`,
    );
  }
  const seq = doc.get('resources', true);
  if (!isSeq(seq) || !seq.range) {
    if (doc.has('resources')) {
      throw conflictError(
        path,
        `cannot add ${entry} to the resources of ${path}: its resources field is not a list`,
      );
    }
    const end = text.endsWith('\n') || text === '' ? '' : '\n';
    return `${text}${end}resources:\n- ${entry}\n`;
  }
  if (
    seq.items.some(item => bareEntry(toPlainItem(item)) === bareEntry(entry))
  ) {
    return undefined;
  }
  if (seq.flow) {
    const close = text.lastIndexOf(']', seq.range[1]);
    const item = seq.items.length > 0 ? `, ${entry}` : entry;
    return `${text.slice(0, close)}${item}${text.slice(close)}`;
  }
  const last = seq.items[seq.items.length - 1] as { range?: number[] };
  const start = last.range![0];
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const prefix = text.slice(lineStart, start);
  const at = lineEnd(text, last.range![1]);
  const newline = at === text.length && !text.endsWith('\n') ? '\n' : '';
  return `${text.slice(0, at)}\n${prefix}${entry}${newline}${text.slice(at)}`;
}

/**
 * What becomes of a list its last item leaves: `drop` takes the key out (a
 * key the product added with its first item), `keep` leaves `[]` (the GPU
 * folder's kustomization, which the bootstrap writes with `resources: []`).
 */
export type EmptiedList = 'drop' | 'keep';

/** Removes the items `matches` picks (by value or place) from the list at `key`; an emptied list goes with its key unless `emptied` is `keep`. */
function removeFromList(
  file: YamlFile,
  key: string,
  matches: (plain: unknown, index: number) => boolean,
  emptied: EmptiedList = 'drop',
): void {
  // An empty file lists nothing: it is left as it is (no header added).
  const doc = file.docs.find(d => isMap(d.contents));
  const seq = doc?.get(key, true);
  if (!doc || !isSeq(seq)) return;
  const kept = seq.items.filter((item, i) => !matches(toPlainItem(item), i));
  if (kept.length === seq.items.length) return;
  if (kept.length === 0 && emptied === 'drop') doc.delete(key);
  else {
    seq.items = kept;
    if (kept.length === 0) seq.flow = true;
  }
  file.modified = true;
}

function toPlainItem(item: unknown): unknown {
  return (
    (item as { toJSON?: () => unknown }).toJSON?.() ??
    (item as { value?: unknown }).value ??
    item
  );
}

/** Removes `entry` from `resources` (the inverse of `addResource`). */
export function removeResource(
  file: YamlFile,
  entry: string,
  emptied: EmptiedList = 'drop',
): void {
  const bare = (value: unknown) => String(value).replace(/^\.\//, '');
  removeFromList(
    file,
    'resources',
    plain => bare(plain) === bare(entry),
    emptied,
  );
}

/**
 * Removes every entry that applies the patch file `patchPath` (relative to
 * the kustomization's folder), whichever patch field lists it and however
 * the path is written: the entries are those the kustomization model reads
 * (`kustomize/patchEntries.ts`), so what is dropped is what kustomize would
 * have applied. An emptied field goes with its key.
 */
export function removePatch(file: YamlFile, patchPath: string): void {
  const doc = file.docs.find(d => isMap(d.contents));
  const patchFile = resolveEntry(kustomizationFolder(file.path), patchPath);
  if (!doc || patchFile === undefined) return;
  const listed = kustomizationPatchEntries(file.path, doc.toJS()).filter(
    entry => entry.file === patchFile,
  );
  for (const key of new Set(listed.map(entry => String(entry.entry[0])))) {
    const places = new Set(
      listed.filter(e => e.entry[0] === key).map(e => e.entry[1]),
    );
    removeFromList(file, key, (_plain, index) => places.has(index));
  }
}

/**
 * Adds a strategic-merge patch file at the END of `patches`: kustomize applies
 * patches in list order, and ours must come after the overlay's own (e.g. its
 * replica count), or they would undo the GPU change.
 */
export function addPatch(file: YamlFile, patchPath: string): void {
  const doc = file.firstMap();
  const seq = ensureSeq(doc, ['patches']);
  const present = seq.items.some(item => {
    const plain =
      (item as { toJSON?: () => unknown }).toJSON?.() ??
      (item as { value?: unknown }).value;
    return (
      plain === patchPath ||
      (typeof plain === 'object' &&
        plain !== null &&
        (plain as { path?: unknown }).path === patchPath)
    );
  });
  if (present) return;
  seq.items.push(doc.createNode({ path: patchPath }));
  file.modified = true;
}

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
