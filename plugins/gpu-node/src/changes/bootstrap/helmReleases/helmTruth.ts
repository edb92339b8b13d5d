import { isPlainObject } from '../../../repo/yamlObjects';

/**
 * Whether a Helm template's `if` takes `value` as true: Go's template
 * truth, false for false, 0, an empty string, list or map, nil and absent
 * (Go `text/template`, "if": "The empty values are false, 0, any nil
 * pointer or interface value, and any array, slice, map, or string of
 * length zero").
 */
export function helmTruth(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}
