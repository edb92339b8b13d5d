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

/**
 * Multipliers of a Kubernetes quantity's suffix (apimachinery
 * `pkg/api/resource/quantity.go`: binary Ki…Ei, decimal m, k…E, or an
 * exponent e/E<n>).
 */
const QUANTITY_SUFFIXES: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|([a-zA-Z]*))$/;

/**
 * Reads a count (GPUs, slices, replicas, nodes) written as a Kubernetes
 * quantity: the CRDs and the core API take an integer or a quantity string
 * (`x-kubernetes-int-or-string`), so `8`, `"8"`, `"1k"` and `"8000m"` are
 * all counts. Anything that is not a whole number is no count.
 */
export function parseCount(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) ? value : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const match = QUANTITY.exec(value.trim());
  if (!match) return undefined;
  const [, number, exponent, suffix] = match;
  const multiplier = exponent
    ? 10 ** Number(exponent.slice(1))
    : QUANTITY_SUFFIXES[suffix ?? ''];
  if (multiplier === undefined) return undefined;
  const count = Number(number) * multiplier;
  // 8000m is 8 (floating point may give 7.999…).
  const whole = Math.round(count);
  return Math.abs(count - whole) < 1e-9 && whole >= 0 ? whole : undefined;
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
