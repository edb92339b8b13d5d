/**
 * Whether a Helm release of Karpenter turns the NodeOverlay gate on, read
 * from its value sources the way the tool that renders it merges them
 * (`readValue`), and where to turn it on.
 */
import {
  hiddenSources,
  layerToSetIn,
  readValue,
  setAdvice,
  type ValuesLayer,
} from '../helmReleases/valuesLayer';
import {
  NODE_OVERLAY_VALUE_KEY,
  NODE_OVERLAY_VALUE_PATH,
} from './karpenterChart';

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
 * both count.
 */
function gateValue(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
    return value.trim().toLowerCase() === 'true';
  }
  return undefined;
}

const them = (hidden: readonly ValuesLayer[]) =>
  hidden.length > 1 ? 'them' : 'it';

/** What `layers` (highest precedence first) set the gate to. */
export function readNodeOverlayGate(layers: ValuesLayer[]): NodeOverlayGate {
  const reading = readValue(layers, NODE_OVERLAY_VALUE_PATH);
  if (reading.state === 'chart-default') return { state: 'chart-default' };
  if (reading.state === 'unknown' && !reading.setIn) {
    return {
      state: 'unknown',
      why: `nothing the bootstrap can read sets \`${NODE_OVERLAY_VALUE_KEY}\`; ${hiddenSources(reading.hidden)} may, and the bootstrap cannot read ${them(reading.hidden)}`,
    };
  }
  const setIn = reading.setIn!;
  const value = gateValue(reading.value);
  if (value === undefined) {
    return {
      state: 'unknown',
      setIn,
      why: `\`${NODE_OVERLAY_VALUE_KEY}\` is \`${JSON.stringify(reading.value)}\` in ${setIn.where}, neither true nor false`,
    };
  }
  if (reading.state === 'unknown') {
    return {
      state: 'unknown',
      setIn,
      why: `${setIn.where} sets \`${NODE_OVERLAY_VALUE_KEY}: ${value}\`, but ${hiddenSources(reading.hidden)} may override it and the bootstrap cannot read ${them(reading.hidden)}`,
    };
  }
  return { state: value ? 'on' : 'off', setIn };
}

/**
 * The source to turn the gate on in (`layerToSetIn`: the one that sets it,
 * else the release's own values).
 */
export function layerToTurnOnIn(
  layers: ValuesLayer[],
  gate: NodeOverlayGate,
): ValuesLayer {
  return layerToSetIn(layers, 'setIn' in gate ? gate.setIn : undefined);
}

/** What to write, and where, to turn the gate on in `layer`. */
export function turnOnAdvice(layer: ValuesLayer): string {
  return setAdvice(layer, NODE_OVERLAY_VALUE_KEY, 'true');
}
