import { parseAllDocuments } from 'yaml';
import { readPlainYamlDocuments } from '@gpu-gitops/plugin-gpu-common';

/**
 *  A file the reader could not use, and why (reported, never fatal).
 *
 * @public
 */
export interface SkippedFile {
  path: string;
  reason: string;
}

/**
 *  One YAML document of a file, as plain data.
 *
 * @public
 */
export interface ParsedDocument {
  path: string;
  /** Index of the document within its file. */
  index: number;
  value: unknown;
}

export function isYamlPath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

/**
 * Parses every document of a YAML file. Empty files and comment-only
 * documents yield nothing; a syntax error yields a skip reason instead of a throw.
 * Plain files take the fast reader; anything it declines (aliases, tags,
 * complex keys, errors) is read by `yaml`, which also words the errors.
 */
export function parseYamlDocuments(
  path: string,
  text: string,
): { documents: ParsedDocument[]; error?: string } {
  const fast = readPlainYamlDocuments(text);
  if (fast) {
    const documents: ParsedDocument[] = [];
    fast.forEach((value, index) => {
      if (value !== null && value !== undefined) {
        documents.push({ path, index, value });
      }
    });
    return { documents };
  }
  let docs;
  try {
    docs = parseAllDocuments(text);
  } catch (e) {
    return { documents: [], error: (e as Error).message };
  }
  if (!Array.isArray(docs)) return { documents: [] }; // EmptyStream
  const documents: ParsedDocument[] = [];
  for (const [index, doc] of docs.entries()) {
    if (doc.errors.length > 0) {
      return {
        documents: [],
        error: `YAML syntax error: ${doc.errors[0].message.split('\n')[0]}`,
      };
    }
    const value = doc.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) continue;
    documents.push({ path, index, value });
  }
  return { documents };
}

/** @public */
export type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 *  A Kubernetes-looking object: a map with string `kind` and `metadata.name`.
 *
 * @public
 */
export function asKubernetesObject(
  value: unknown,
):
  | (PlainObject & { kind: string; metadata: PlainObject & { name: string } })
  | undefined {
  if (!isPlainObject(value) || typeof value.kind !== 'string') return undefined;
  const metadata = value.metadata;
  if (!isPlainObject(metadata) || typeof metadata.name !== 'string') {
    return undefined;
  }
  return value as PlainObject & {
    kind: string;
    metadata: PlainObject & { name: string };
  };
}

/** Reads a path inside plain data, e.g. get(obj, 'spec', 'template'). */
export function getIn(value: unknown, ...keys: (string | number)[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof key === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[key];
    } else {
      if (!isPlainObject(current)) return undefined;
      current = current[key];
    }
  }
  return current;
}

/** Parses a Kubernetes quantity used for GPU counts ("4", 4, "8"). */
export function parseCount(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) {
    return Number(value.trim());
  }
  return undefined;
}

/** A map's entries as strings (labels, annotations, limits), null and missing values left out. */
export function stringRecord(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) return {};
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
}
