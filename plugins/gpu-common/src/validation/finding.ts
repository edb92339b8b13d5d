import type { InputIssue } from '../errors';

/**
 * One broken rule: where (dotted path inside the checked object), which rule
 * (short id) and a sentence a reviewer understands. Same shape as
 * `InputIssue`, so findings can be thrown as a `GpuInputError`.
 *
 * @public
 */
export type ValidationFinding = InputIssue;

/** Joins path segments: `joinPath('spec.requirements', 0, 'key')` is `spec.requirements[0].key`. */
export function joinPath(...segments: (string | number)[]): string {
  return segments
    .map((segment, index) => {
      if (typeof segment === 'number') return `[${segment}]`;
      return index === 0 ? segment : `.${segment}`;
    })
    .join('');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
