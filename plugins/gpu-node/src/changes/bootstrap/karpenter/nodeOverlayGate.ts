/**
 * Whether a Helm release of Karpenter turns the NodeOverlay gate on, read
 * from its value sources the way the tool that renders it merges them, and
 * where to turn it on.
 */
import { getIn, isPlainObject } from '../../../repo/yamlObjects';
import {
  NODE_OVERLAY_VALUE_KEY,
  NODE_OVERLAY_VALUE_PATH,
} from './karpenterChart';

/**
 * One source of a release's values. A release lists them highest precedence
 * first; the chart's own `values.yaml` comes after all of them.
 */
export interface ValuesLayer {
  /** Where the values are, in the reviewer's words (field, object, file). */
  where: string;
  /** A values document, or Argo CD `helm.parameters` (one `name`/`value` per key). */
  form: 'values' | 'parameters';
  /**
   * The values; `absent` when the release has no such source yet (one it
   * may add), `hidden` when they live where the bootstrap cannot read them
   * (a ConfigMap, the chart repository's files, a file outside the repository).
   */
  content: { values: unknown } | 'absent' | 'hidden';
}

/** What a release sets the gate to, and the source that decides it. */
export type NodeOverlayGate =
  | { state: 'on' | 'off'; setIn: ValuesLayer }
  /** Nothing sets it: the chart's default, off. */
  | { state: 'chart-default' }
  /** A source the bootstrap cannot read may set it, or it is set to something neither true nor false. */
  | { state: 'unknown'; why: string; setIn?: ValuesLayer };

/**
 * The gate value as the controller reads it: Helm prints the value into
 * `NodeOverlay=<value>`, so YAML booleans and the strings `true`/`false`
 * (Argo CD parameters are strings) both count.
 */
function gateValue(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
    return value.trim().toLowerCase() === 'true';
  }
  return undefined;
}

/** The gate's value in a values document, or undefined when the document does not set it. */
function gateIn(values: unknown): unknown {
  return getIn(values, ...NODE_OVERLAY_VALUE_PATH);
}

/** What `layers` (highest precedence first) set the gate to. */
export function readNodeOverlayGate(layers: ValuesLayer[]): NodeOverlayGate {
  const hidden: ValuesLayer[] = [];
  for (const layer of layers) {
    if (layer.content === 'absent') continue;
    if (layer.content === 'hidden') {
      hidden.push(layer);
      continue;
    }
    const raw = gateIn(layer.content.values);
    if (raw === undefined || raw === null) continue;
    const value = gateValue(raw);
    const unseen = hidden.map(h => h.where).join(', ');
    if (value === undefined) {
      return {
        state: 'unknown',
        setIn: layer,
        why: `\`${NODE_OVERLAY_VALUE_KEY}\` is \`${JSON.stringify(raw)}\` in ${layer.where}, neither true nor false`,
      };
    }
    if (hidden.length > 0) {
      return {
        state: 'unknown',
        setIn: layer,
        why: `${layer.where} sets \`${NODE_OVERLAY_VALUE_KEY}: ${value}\`, but ${unseen} may override it and the bootstrap cannot read ${hidden.length > 1 ? 'them' : 'it'}`,
      };
    }
    return { state: value ? 'on' : 'off', setIn: layer };
  }
  if (hidden.length > 0) {
    return {
      state: 'unknown',
      why: `nothing the bootstrap can read sets \`${NODE_OVERLAY_VALUE_KEY}\`; ${hidden.map(h => h.where).join(', ')} may, and the bootstrap cannot read ${hidden.length > 1 ? 'them' : 'it'}`,
    };
  }
  return { state: 'chart-default' };
}

/**
 * The source to turn the gate on in: the one that sets it, else the
 * highest-precedence source the release already has, else the first it may
 * add (its own inline values). Editing an existing source rather than
 * adding one matters: Argo CD ignores `helm.values` once `valuesObject` is
 * there, and kustomize's `valuesMerge: replace` drops the values file once
 * `valuesInline` is.
 */
export function layerToTurnOnIn(
  layers: ValuesLayer[],
  gate: NodeOverlayGate,
): ValuesLayer {
  if ('setIn' in gate && gate.setIn) return gate.setIn;
  const existing = layers.find(l => isPlainObjectContent(l.content));
  return existing ?? layers.find(l => l.content === 'absent') ?? layers[0];
}

function isPlainObjectContent(content: ValuesLayer['content']): boolean {
  return typeof content === 'object' && isPlainObject(content.values);
}

/** What to write, and where, to turn the gate on in `layer`. */
export function turnOnAdvice(layer: ValuesLayer): string {
  return layer.form === 'parameters'
    ? `the parameter \`${NODE_OVERLAY_VALUE_KEY}\` to \`"true"\` in ${layer.where}`
    : `\`${NODE_OVERLAY_VALUE_KEY}: true\` in ${layer.where}`;
}
