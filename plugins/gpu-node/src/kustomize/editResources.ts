import { isMap, isSeq, parseDocument } from 'yaml';
import { conflictError } from '../changes/conflict';
import { ensureSeq, sortSeq, YamlFile } from '../changes/yamlFile';
import {
  removeFromList,
  toPlainItem,
  type EmptiedList,
} from './editKustomization';

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

/** The text from `start` to `end` taken out. */
const without = (text: string, start: number, end: number) =>
  `${text.slice(0, start)}${text.slice(end)}`;

/**
 * `text` of a kustomization the product does not manage without the
 * `resources` entry `entry`, the inverse of `insertResource`: its line (or
 * its flow item) goes and every other byte stays as the team wrote it; the
 * `resources:` key goes with its last entry. Undefined when it is not
 * listed, or the file does not parse (nothing to take out).
 */
export function deleteResource(
  text: string,
  entry: string,
): string | undefined {
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  const pair = doc.contents.items.find(p => toPlainItem(p.key) === 'resources');
  const seq = pair?.value;
  if (!isSeq(seq) || !seq.range) return undefined;
  const items = seq.items as { range?: number[] }[];
  const index = seq.items.findIndex(
    item => bareEntry(toPlainItem(item)) === bareEntry(entry),
  );
  if (index < 0) return undefined;
  const range = items[index].range!;
  if (seq.flow) {
    if (index > 0) return without(text, items[index - 1].range![1], range[1]);
    const next = items[1]?.range?.[0] ?? range[1];
    return without(text, range[0], next);
  }
  const first =
    items.length === 1 ? (pair!.key as { range: number[] }).range[0] : range[0];
  const start = text.lastIndexOf('\n', first - 1) + 1;
  return without(
    text,
    start,
    Math.min(lineEnd(text, range[1]) + 1, text.length),
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
