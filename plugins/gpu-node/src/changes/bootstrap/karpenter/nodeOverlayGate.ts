/**
 * Whether a Helm release of Karpenter turns a feature gate on (the
 * NodeOverlay gate; on AWS also `draNVIDIAGPU`, `draNvidiaGate.ts`), read
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

/** What `layers` (highest precedence first) set the NodeOverlay gate to. */
export function readNodeOverlayGate(layers: ValuesLayer[]): NodeOverlayGate {
  return readGate(layers, NODE_OVERLAY_VALUE_PATH);
}

/** What `layers` (highest precedence first) set the gate at `path` to. */
export function readGate(
  layers: ValuesLayer[],
  path: readonly string[],
): NodeOverlayGate {
  const key = path.join('.');
  const reading = readValue(layers, path);
  if (reading.state === 'chart-default') return { state: 'chart-default' };
  if (reading.state === 'unknown' && !reading.setIn) {
    return {
      state: 'unknown',
      why: `nothing the bootstrap can read sets \`${key}\`; ${hiddenSources(reading.hidden)} may, and the bootstrap cannot read ${them(reading.hidden)}`,
    };
  }
  const setIn = reading.setIn!;
  const value = gateValue(reading.value);
  if (value === undefined) {
    return {
      state: 'unknown',
      setIn,
      why: `\`${key}\` is \`${JSON.stringify(reading.value)}\` in ${setIn.where}, neither true nor false`,
    };
  }
  if (reading.state === 'unknown') {
    return {
      state: 'unknown',
      setIn,
      why: `${setIn.where} sets \`${key}: ${value}\`, but ${hiddenSources(reading.hidden)} may override it and the bootstrap cannot read ${them(reading.hidden)}`,
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

/** What to write, and where, to turn the gate at `key` (the NodeOverlay gate unless told) on in `layer`. */
export function turnOnAdvice(
  layer: ValuesLayer,
  key: string = NODE_OVERLAY_VALUE_KEY,
): string {
  return setAdvice(layer, key, 'true');
}
