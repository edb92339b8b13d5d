/**
 * Reads a legacy object's fields one by one and remembers which it took, so
 * that whatever a converter did not map is reported with its value rather
 * than lost: a field Karpenter added to a legacy API that the converter does
 * not know still shows up in the report.
 */
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';
import type { ImportFinding } from './findings';

export class FieldReader {
  private readonly taken = new Set<string>();

  constructor(
    private readonly value: PlainObject,
    /** Dotted path of `value` in the object (e.g. `spec`). */
    private readonly path: string,
    private readonly object: string,
  ) {}

  /** The field's value (undefined when absent or null); marks it as mapped. */
  take(key: string): unknown {
    this.taken.add(key);
    const v = this.value[key];
    return v === null ? undefined : v;
  }

  /** A map field (labels, selectors, limits); undefined when absent or not a map. */
  takeMap(key: string): PlainObject | undefined {
    const v = this.take(key);
    return isPlainObject(v) ? v : undefined;
  }

  has(key: string): boolean {
    return this.value[key] !== undefined && this.value[key] !== null;
  }

  /** Every field not taken, as `no-v1-equivalent` findings with their values. */
  untaken(reason: (field: string) => string): ImportFinding[] {
    return Object.keys(this.value)
      .filter(k => !this.taken.has(k))
      .filter(k => this.value[k] !== undefined && this.value[k] !== null)
      .map(k => ({
        kind: 'no-v1-equivalent' as const,
        object: this.object,
        field: `${this.path}.${k}`,
        value: this.value[k],
        message: reason(k),
      }));
  }
}

/** A deep copy of plain YAML data. */
export function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A deep copy of `value` when it is a list, else undefined. */
export function copyIfList(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? copy(value) : undefined;
}

/** `value` without undefined entries, so converted objects carry only what is set. */
export function compact(value: PlainObject): PlainObject {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  );
}
