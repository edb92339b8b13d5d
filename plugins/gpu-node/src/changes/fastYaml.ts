/**
 * A fast path for the YAML of new files: plain data (maps, lists, simple
 * strings, numbers, booleans, null) serialised by hand, byte for byte as
 * `yaml`'s `stringify(value, YAML_OPTIONS)` writes it. Serialising every
 * new file through the `yaml` library's document model was most of the time
 * a request takes to plan and render (`npm run bench -- plan-render`).
 *
 * It only writes what it is sure of. Anything else — a string that would
 * need quotes or could read as another type, several lines, a repeated
 * object (`yaml` would write an alias), undefined, a Date, a non-finite
 * number — answers `undefined`, and the caller uses `yaml`. The test holds
 * the two to identical output on every manifest we build and on strings
 * chosen to trip YAML up.
 */

/** Starts like a plain scalar and continues without spaces, `#`, quotes, brackets or `,`. */
const SIMPLE = /^[A-Za-z0-9_/][A-Za-z0-9_./:@+=-]*$/;
/** YAML 1.2 core-schema numbers (and what a 1.1 reader would take for one). */
const NUMBER_LIKE =
  /^(?:[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?)$/;
/** Words a YAML 1.2 or 1.1 reader takes for null or a boolean. */
const RESERVED =
  /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;

/** Thrown inside the walk when `yaml` must decide; caught at the top. */
class NotSimple extends Error {}

/**
 * Strings a YAML 1.2 core-schema reader would take for a number, null or a
 * boolean, which `yaml` double-quotes: `"3"` GPUs in a NodeOverlay,
 * `"false"` in a label, `"0x20B010DE"` PCI ids in a MIG device filter.
 */
const QUOTED =
  /^(?:-?[0-9]+(?:\.[0-9]+)?|0x[0-9a-fA-F]+|null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;

/** A string `yaml` writes without quotes, as it is. */
function isSimpleString(s: string): boolean {
  return (
    SIMPLE.test(s) &&
    !s.endsWith(':') &&
    !NUMBER_LIKE.test(s) &&
    !RESERVED.test(s)
  );
}

/** The string as `yaml` writes it (key or value), when the fast path knows how. */
function stringText(s: string): string {
  if (isSimpleString(s)) return s;
  if (QUOTED.test(s)) return `"${s}"`;
  throw new NotSimple();
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `value` as `yaml`'s block-style document text (trailing newline), or
 * undefined when the fast path is not sure to match `yaml` exactly.
 */
export function fastPlainYaml(value: unknown): string | undefined {
  const seen = new Set<object>();
  const lines: string[] = [];

  const scalar = (v: unknown): string | undefined => {
    if (v === null) return 'null';
    switch (typeof v) {
      case 'string':
        return stringText(v);
      case 'number':
        // yaml writes -0 as `-0`, JSON as `0`.
        if (!Number.isFinite(v) || Object.is(v, -0)) throw new NotSimple();
        return JSON.stringify(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'object':
        return undefined; // a collection
      default:
        throw new NotSimple(); // undefined, bigint, symbol, function
    }
  };

  const enter = (v: object): void => {
    if (seen.has(v)) throw new NotSimple(); // yaml would write an anchor and alias
    seen.add(v);
    if (!Array.isArray(v) && !isPlainObject(v)) throw new NotSimple();
  };

  /** Writes a collection whose first line continues `prefix`; later lines start with `indent`. */
  const collection = (v: object, prefix: string, indent: string): void => {
    enter(v);
    if (Array.isArray(v)) {
      if (v.length === 0) {
        lines.push(`${prefix}[]`);
        return;
      }
      v.forEach((entry, i) => {
        item(i === 0 ? `${prefix}- ` : `${indent}- `, entry, `${indent}  `);
      });
      return;
    }
    const map = v as Record<string, unknown>;
    const keys = Object.keys(map);
    if (keys.length === 0) {
      lines.push(`${prefix}{}`);
      return;
    }
    keys.forEach((key, i) => {
      const name = stringText(key);
      const lead = i === 0 ? prefix : indent;
      const child = map[key];
      const text = scalar(child);
      if (text !== undefined) {
        lines.push(`${lead}${name}: ${text}`);
      } else if (isEmptyCollection(child as object)) {
        enter(child as object);
        lines.push(`${lead}${name}: ${Array.isArray(child) ? '[]' : '{}'}`);
      } else {
        lines.push(`${lead}${name}:`);
        collection(child as object, `${indent}  `, `${indent}  `);
      }
    });
  };

  /** A list entry: scalars after the dash, collections starting on the dash line. */
  function item(prefix: string, v: unknown, indent: string): void {
    const text = scalar(v);
    if (text !== undefined) {
      lines.push(`${prefix}${text}`);
      return;
    }
    collection(v as object, prefix, indent);
  }

  try {
    const text = scalar(value);
    if (text !== undefined) return `${text}\n`;
    collection(value as object, '', '');
  } catch (error) {
    if (error instanceof NotSimple) return undefined;
    throw error;
  }
  return `${lines.join('\n')}\n`;
}

function isEmptyCollection(v: object): boolean {
  return Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
}
