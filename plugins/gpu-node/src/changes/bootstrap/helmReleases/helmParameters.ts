/**
 * Argo CD `helm.parameters` as the values document Helm makes of them.
 * Argo CD hands each parameter to `helm template` as `--set name=value`, or
 * `--set-string` with `forceString: true`, its commas escaped so the value
 * stays one (argoproj/argo-cd v3.3.0 `util/helm/cmd.go`, `template` and
 * `cleanSetParameters`). Helm reads the name as a path (`a.b[0].c`, a dot
 * escaped as `\.`) and, for `--set`, `true` and `false` (any case) as
 * booleans, `null` as no value, and `0` or a decimal integer that does not
 * start with `0` as an int64 (helm/helm v3.18.0 `pkg/strvals/parser.go`,
 * `typedVal`): `--set x=0` is the number 0, false to a template's `if`,
 * while `--set x=007` stays the string.
 */
import {
  getIn,
  isPlainObject,
  type PlainObject,
} from '../../../repo/yamlObjects';

type PathPart = string | number;

/** `a.b[0].c` as `['a', 'b', 0, 'c']`; undefined for a name Helm would not take. */
function parameterPath(name: string): PathPart[] | undefined {
  const parts: PathPart[] = [];
  let key = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '\\' && i + 1 < name.length) {
      key += name[++i];
    } else if (c === '.') {
      if (key === '') return undefined;
      parts.push(key);
      key = '';
    } else if (c === '[') {
      const close = name.indexOf(']', i);
      const index = Number(name.slice(i + 1, close));
      if (close < 0 || !Number.isInteger(index) || index < 0) return undefined;
      if (key !== '') parts.push(key);
      key = '';
      parts.push(index);
      i = close;
      if (name[i + 1] === '.') i++;
    } else {
      key += c;
    }
  }
  if (key !== '') parts.push(key);
  return parts.length > 0 ? parts : undefined;
}

function typedValue(value: unknown, forceString: boolean): unknown {
  const text = value === undefined || value === null ? '' : String(value);
  if (forceString) return text;
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (/^null$/i.test(text)) return null;
  return helmInteger(text) ?? text;
}

/**
 * `text` as Helm's `strconv.ParseInt(text, 10, 64)` takes it, for `0` and
 * text not starting with `0`; undefined where Helm keeps the string. Past
 * JavaScript's safe integers the digits stay a string: no value read here
 * is that large, and its truth (not zero) is the same.
 */
function helmInteger(text: string): number | undefined {
  if (text === '0') return 0;
  if (text.startsWith('0') || !/^[+-]?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

function setPath(target: PlainObject, path: PathPart[], value: unknown) {
  let node: PlainObject | unknown[] = target;
  for (const [i, part] of path.entries()) {
    const last = i === path.length - 1;
    const next = path[i + 1];
    const container = node as Record<PathPart, unknown>;
    if (last) {
      container[part] = value;
      return;
    }
    // A list where the next part is an index, a map otherwise; what is
    // there already of that shape is kept.
    const existing = container[part];
    let child: unknown;
    if (typeof next === 'number')
      child = Array.isArray(existing) ? existing : [];
    else child = isPlainObject(existing) ? existing : {};
    container[part] = child;
    node = child as PlainObject | unknown[];
  }
}

/**
 * The values document `parameters` (`{name, value, forceString}` each, in
 * order: a later one wins) stand for; a parameter whose name Helm would not
 * take is left out.
 */
export function helmParameterValues(parameters: unknown): PlainObject {
  const values: PlainObject = {};
  for (const parameter of Array.isArray(parameters) ? parameters : []) {
    const name = getIn(parameter, 'name');
    if (typeof name !== 'string') continue;
    const path = parameterPath(name);
    if (!path) continue;
    setPath(
      values,
      path,
      typedValue(
        getIn(parameter, 'value'),
        getIn(parameter, 'forceString') === true,
      ),
    );
  }
  return values;
}
