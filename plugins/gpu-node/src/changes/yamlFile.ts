import {
  Document,
  isMap,
  isScalar,
  isSeq,
  parseAllDocuments,
  parseDocument,
  type ToStringOptions,
  YAMLMap,
  YAMLSeq,
} from 'yaml';
import { GpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { compareStrings } from '@gpu-gitops/plugin-gpu-common';
import { deepEqual, YAML_OPTIONS } from './canonical';
import { keepOriginalLines, listItemsIndented } from './keepOriginalLines';

/**
 * An existing (or new) YAML file edited through the `yaml` Document API, so
 * comments, key order and unrelated documents survive an edit. Handles empty
 * files, comment-only files and multi-document files.
 */
export class YamlFile {
  private constructor(
    readonly path: string,
    readonly docs: Document[],
    private readonly original: string | undefined,
  ) {}

  /** True once a document was changed or added; untouched files are never re-serialized. */
  modified = false;

  static parse(path: string, text: string | undefined): YamlFile {
    if (text === undefined || text.trim() === '') {
      return new YamlFile(path, [], text);
    }
    let docs = parseAllDocuments(text) as Document[];
    if (!Array.isArray(docs) || docs.length === 0) {
      // Comment-only file: keep the comment as the head of the first document.
      docs = [parseDocument(text)];
    }
    for (const doc of docs) {
      if (doc.errors.length > 0) {
        throw new GpuInputError([
          {
            path,
            rule: 'yaml-syntax',
            message: `cannot edit ${path}: ${doc.errors[0].message.split('\n')[0]}`,
          },
        ]);
      }
    }
    return new YamlFile(path, docs, text);
  }

  get exists(): boolean {
    return this.original !== undefined;
  }

  /** Plain-data view of each document (null for empty documents). */
  values(): unknown[] {
    return this.docs.map(d => (d.contents === null ? null : d.toJS()));
  }

  /** The document whose root map has this kind and metadata.name. */
  findObject(kind: string, name: string): Document | undefined {
    return this.docs.find(
      d =>
        isMap(d.contents) &&
        d.get('kind') === kind &&
        d.getIn(['metadata', 'name']) === name,
    );
  }

  /** The first document whose root is a map; turns an empty file into one. */
  firstMap(): Document {
    const found = this.docs.find(d => isMap(d.contents));
    if (found) return found;
    const blank = this.docs.find(
      d =>
        d.contents === null ||
        (isScalar(d.contents) && d.contents.value === null),
    );
    if (blank) {
      blank.contents = blank.createNode({});
      this.modified = true;
      return blank;
    }
    return this.append({});
  }

  /** Removes a document (with the comments it carries). */
  remove(doc: Document): void {
    const at = this.docs.indexOf(doc);
    if (at < 0) return;
    this.docs.splice(at, 1);
    this.modified = true;
  }

  /** True when no document holds anything (a file left with comments only counts as empty too). */
  get isEmpty(): boolean {
    return this.docs.every(
      d =>
        d.contents === null ||
        (isScalar(d.contents) && d.contents.value === null),
    );
  }

  append(value: unknown): Document {
    const doc = new Document(value);
    this.docs.push(doc);
    this.modified = true;
    return doc;
  }

  toString(options: ToStringOptions = YAML_OPTIONS): string {
    const parts = this.docs
      .filter(d => !(this.docs.length > 1 && isBlank(d)))
      .map((doc, i) => {
        const text = doc.toString(options);
        return i > 0 && !text.startsWith('---') ? `---\n${text}` : text;
      });
    const text = parts.join('');
    return text.endsWith('\n') ? text : `${text}\n`;
  }

  /** The text to write (the lines the edit did not change as they were written), or undefined when nothing changed. */
  newContent(): string | undefined {
    if (!this.modified) return undefined;
    if (this.original === undefined) return this.toString();
    // New lines in the file's own list style, the others as they were written.
    const options = {
      ...YAML_OPTIONS,
      indentSeq: listItemsIndented(this.original),
    };
    const text = keepOriginalLines(
      withFinalNewline(this.original),
      YamlFile.parse(this.path, this.original).toString(options),
      this.toString(options),
    );
    return text === this.original ? undefined : text;
  }
}

function withFinalNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

function isBlank(doc: Document): boolean {
  return (
    (doc.contents === null ||
      (isScalar(doc.contents) && doc.contents.value === null)) &&
    !doc.commentBefore &&
    !doc.comment
  );
}

/**
 * Makes the node at `path` in `doc` equal to `value`, changing only what
 * differs: unchanged keys keep their comments and position, new keys are
 * appended, vanished keys removed. Returns true when anything changed.
 */
export function syncNode(
  doc: Document,
  path: (string | number)[],
  value: unknown,
): boolean {
  const current = path.length ? doc.getIn(path, true) : doc.contents;
  const plain =
    current === undefined || current === null ? undefined : toPlain(current);
  if (plain !== undefined && deepEqual(plain, value)) return false;
  if (isMap(current) && isRecord(value)) {
    const map = current as YAMLMap;
    for (const item of [...map.items]) {
      const key = isScalar(item.key) ? item.key.value : item.key;
      if (typeof key === 'string' && !(key in value)) map.delete(key);
    }
    for (const [key, child] of Object.entries(value)) {
      if (map.has(key)) syncNode(doc, [...path, key], child);
      else map.set(doc.createNode(key), doc.createNode(child));
    }
    return true;
  }
  // A list keeps its items' comments when only their content changed
  // (e.g. one container of several got a GPU limit); items added at the end
  // are appended, items gone at the end removed.
  if (isSeq(current) && Array.isArray(value)) {
    const seq = current as YAMLSeq;
    const shared = Math.min(seq.items.length, value.length);
    for (let i = 0; i < shared; i++) syncNode(doc, [...path, i], value[i]);
    seq.items.splice(shared);
    for (const item of value.slice(shared))
      seq.items.push(doc.createNode(item));
    return true;
  }
  if (path.length === 0) doc.contents = doc.createNode(value);
  else doc.setIn(path, doc.createNode(value));
  return true;
}

function toPlain(node: unknown): unknown {
  if (node && typeof node === 'object' && 'toJSON' in node) {
    return (node as { toJSON(): unknown }).toJSON();
  }
  return node;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The sequence at `key` of a map document, created when missing. */
export function ensureSeq(doc: Document, path: (string | number)[]): YAMLSeq {
  const existing = doc.getIn(path, true);
  if (isSeq(existing)) return existing;
  const seq = doc.createNode([]) as YAMLSeq;
  doc.setIn(path, seq);
  return seq;
}

/** Sorts sequence items by a key (comments travel with their items). */
export function sortSeq(seq: YAMLSeq, keyOf: (item: unknown) => string): void {
  seq.items.sort((a, b) => {
    return compareStrings(keyOf(toPlain(a)), keyOf(toPlain(b)));
  });
}

/** Sorts map entries by key. */
export function sortMap(map: YAMLMap): void {
  map.items.sort((a, b) => {
    const ka = String(isScalar(a.key) ? a.key.value : a.key);
    const kb = String(isScalar(b.key) ? b.key.value : b.key);
    return compareStrings(ka, kb);
  });
}
