/**
 * The value sources of a Helm release, highest precedence first, and what
 * they set a value to, read the way Helm merges them: maps merge key by key
 * and the highest source that sets a key decides it, so one value (a leaf,
 * or a whole list: Helm replaces lists) is decided by the first source that
 * sets it. The chart's own `values.yaml` comes after every source.
 */
import { getIn, isPlainObject } from '../../../repo/yamlObjects';

/**
 * One source of a release's values. A release lists them highest precedence
 * first; the chart's own `values.yaml` comes after all of them.
 */
export interface ValuesLayer {
  /** Where the values are, in the reviewer's words (field, object, file). */
  where: string;
  /**
   * A values document, or Argo CD `helm.parameters` (one `name`/`value` per
   * key, read into a values document by `helmParameterValues`).
   */
  form: 'values' | 'parameters';
  /**
   * The values; `absent` when the release has no such source yet (one it
   * may add), `hidden` when they live where the bootstrap cannot read them
   * (a Secret, the chart repository's files, a file outside the repository).
   */
  content: { values: unknown } | 'absent' | 'hidden';
}

/** What a release's sources set one value to. */
export type ValueReading =
  /** A source the bootstrap reads sets it, and no source it cannot read comes before. */
  | { state: 'set'; value: unknown; setIn: ValuesLayer }
  /** No source sets it: the chart's default applies. */
  | { state: 'chart-default' }
  /**
   * Sources the bootstrap cannot read (`hidden`, highest first) come before
   * the one that sets it (`setIn`, `value`), or before the chart's default.
   */
  | {
      state: 'unknown';
      hidden: ValuesLayer[];
      setIn?: ValuesLayer;
      value?: unknown;
    };

/** What `layers` (highest precedence first) set the value at `path` to. */
export function readValue(
  layers: readonly ValuesLayer[],
  path: readonly string[],
): ValueReading {
  const hidden: ValuesLayer[] = [];
  for (const layer of layers) {
    if (layer.content === 'absent') continue;
    if (layer.content === 'hidden') {
      hidden.push(layer);
      continue;
    }
    const value = getIn(layer.content.values, ...path);
    // Helm drops a key set to null: the next source decides.
    if (value === undefined || value === null) continue;
    return hidden.length > 0
      ? { state: 'unknown', hidden, setIn: layer, value }
      : { state: 'set', value, setIn: layer };
  }
  return hidden.length > 0
    ? { state: 'unknown', hidden }
    : { state: 'chart-default' };
}

/** The sources of `hidden`, as a clause: "`a`, `b`". */
export function hiddenSources(hidden: readonly ValuesLayer[]): string {
  return hidden.map(layer => layer.where).join(', ');
}

/**
 * The source to set a value in: the one that sets it (`setIn`), else the
 * highest-precedence values document the release already has, else the
 * first it may add (its own inline values). Editing an existing source
 * rather than adding one matters: Argo CD ignores `helm.values` once
 * `valuesObject` is there, and kustomize's `valuesMerge: replace` drops the
 * values file once `valuesInline` is. Argo CD parameters are only where
 * they already set the value: a values document is easier to review.
 */
export function layerToSetIn(
  layers: readonly ValuesLayer[],
  setIn: ValuesLayer | undefined,
): ValuesLayer {
  if (setIn) return setIn;
  const existing = layers.find(
    l =>
      l.form === 'values' &&
      typeof l.content === 'object' &&
      isPlainObject(l.content.values),
  );
  return existing ?? layers.find(l => l.content === 'absent') ?? layers[0];
}

/**
 * What to write, and where, to set `key` to `value` (as YAML writes it,
 * e.g. `true`, `mixed`) in `layer`.
 */
export function setAdvice(
  layer: ValuesLayer,
  key: string,
  value: string,
): string {
  return layer.form === 'parameters'
    ? `the parameter \`${key}\` to \`"${value}"\` in ${layer.where}`
    : `\`${key}: ${value}\` in ${layer.where}`;
}
