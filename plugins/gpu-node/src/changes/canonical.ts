import { stringify } from 'yaml';

/** One serializer setting for every file we write, so concurrent branches produce identical text. */
export const YAML_OPTIONS = {
  lineWidth: 0,
  flowCollectionPadding: false,
} as const;

/** Serializes plain data to YAML (block style, trailing newline) with `YAML_OPTIONS`. */
export function toYaml(value: unknown): string {
  const text = stringify(value, YAML_OPTIONS);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** Returns a copy with all map keys sorted (arrays keep their order). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map(k => [k, sortKeysDeep((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Structural equality of plain data, ignoring map key order. */
export function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeysDeep(a)) === JSON.stringify(sortKeysDeep(b));
}
