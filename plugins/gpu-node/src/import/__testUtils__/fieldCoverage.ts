/**
 * TEST-ONLY: "no field with a v1 equivalent is lost". Walks every leaf of a
 * legacy object and checks it is either in the converted objects at the path
 * the upgrade guide maps it to (the caller's `mapLeaf`, written from the
 * guide, not from the converter), or named by a finding of the report.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ImportFinding } from '../convert/findings';

export type LeafPath = (string | number)[];

/** Where a leaf must be found: an output object, its path and the value it must have there. */
export interface LeafTarget {
  output: string;
  path: LeafPath;
  /** The value expected there (default: the leaf's own value). */
  value?: unknown;
}

export function leaves(
  value: unknown,
  at: LeafPath = [],
): { path: LeafPath; value: unknown }[] {
  if (Array.isArray(value)) {
    return value.length === 0
      ? [{ path: at, value }]
      : value.flatMap((v, i) => leaves(v, [...at, i]));
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0
      ? [{ path: at, value }]
      : entries.flatMap(([k, v]) => leaves(v, [...at, k]));
  }
  return [{ path: at, value }];
}

function getPath(value: unknown, path: LeafPath): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** A finding names the leaf when its field is the leaf's dotted path or a parent of it. */
function reported(findings: ImportFinding[], path: LeafPath): boolean {
  const dotted = path.join('.');
  return findings.some(
    f =>
      f.field !== undefined &&
      (dotted === f.field || dotted.startsWith(`${f.field}.`)),
  );
}

/**
 * The leaves neither found at their mapped place nor reported, each as
 * `<path>: <why>`; a test expects this list to be empty.
 */
export function lostLeaves(
  input: unknown,
  outputs: Record<string, unknown>,
  findings: ImportFinding[],
  mapLeaf: (path: LeafPath, value: unknown) => LeafTarget | undefined,
): string[] {
  const lost: string[] = [];
  for (const leaf of leaves(input)) {
    if (leaf.path[0] === 'apiVersion' || leaf.path[0] === 'kind') continue;
    if (reported(findings, leaf.path)) continue;
    const target = mapLeaf(leaf.path, leaf.value);
    const dotted = leaf.path.join('.');
    if (!target) {
      lost.push(`${dotted}: no v1 place and no finding`);
      continue;
    }
    const found = getPath(outputs[target.output], target.path);
    const expected = 'value' in target ? target.value : leaf.value;
    if (!isDeepStrictEqual(found, expected)) {
      lost.push(
        `${dotted}: expected ${JSON.stringify(expected)} at ${target.output} ${target.path.join('.')}, found ${JSON.stringify(found)}`,
      );
    }
  }
  return lost;
}
