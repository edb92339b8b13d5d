/**
 * Whether the Node Feature Discovery a Helm release installs (as a subchart,
 * under `prefix`: `nfd` in the standalone device-plugin chart,
 * `node-feature-discovery` in the GPU Operator's) applies the taints of
 * NodeFeatureRules. nfd-master applies them only with `-enable-taints`,
 * which NFD's chart passes `if .Values.master.enableTaints` (Go's truth),
 * or when its config file's `enableTaints: true` turns them on
 * (node-feature-discovery v0.19.0
 * `deployment/helm/node-feature-discovery/templates/master.yaml`,
 * `pkg/nfd-master/nfd-master.go`). Neither chart sets either: NFD's own
 * `values.yaml` has `master.enableTaints: false` and the config key
 * commented out (gpu-operator v26.7.0, k8s-device-plugin v0.20.0, which
 * pin that NFD).
 */
import type { HelmRelease } from './helmRelease';
import { helmTruth } from './helmTruth';
import {
  layerToSetIn,
  readValue,
  setAdvice,
  type ValueReading,
} from './valuesLayer';

/** What a release's values say of its NFD's taints. */
export interface NfdTaints {
  /** True when they are applied, false when not, undefined when a source that may say cannot be read. */
  applies: boolean | undefined;
  /** The key that turns them on, as the release sets it (`<prefix>.master.enableTaints` when it does). */
  onBy?: string;
  /** What to set, and where, to turn them on, in the form of the release's values source (`setAdvice`). */
  toTurnOn: string;
  /** The flag's key (`<prefix>.master.enableTaints`), the one the advice sets. */
  flagKey: string;
  /** The config file's key (`<prefix>.master.config.enableTaints`). */
  configKey: string;
  /** When `applies` is undefined: the readings of the two keys that sources the bootstrap cannot read may set. */
  untold: UntoldReading[];
}

/** A value sources the bootstrap cannot read may set. */
export type UntoldReading = Extract<ValueReading, { state: 'unknown' }>;

/** Read `release`'s NFD taints under the subchart alias `prefix`. */
export function readNfdTaints(release: HelmRelease, prefix: string): NfdTaints {
  const flagKey = `${prefix}.master.enableTaints`;
  const configKey = `${prefix}.master.config.enableTaints`;
  const flag = readValue(release.layers, flagKey.split('.'));
  const config = readValue(release.layers, configKey.split('.'));
  const toTurnOn = setAdvice(
    layerToSetIn(
      release.layers,
      flag.state === 'chart-default' ? undefined : flag.setIn,
    ),
    flagKey,
    'true',
  );
  const keys = { toTurnOn, flagKey, configKey };
  if (isSet(flag) && helmTruth(flag.value)) {
    return { applies: true, onBy: flagKey, ...keys, untold: [] };
  }
  // The config file is YAML NFD reads itself: only a real `true` is true.
  if (isSet(config) && config.value === true) {
    return { applies: true, onBy: configKey, ...keys, untold: [] };
  }
  const untold = [flag, config].filter(
    (reading): reading is UntoldReading => reading.state === 'unknown',
  );
  return { applies: untold.length > 0 ? undefined : false, ...keys, untold };
}

const isSet = (
  reading: ValueReading,
): reading is Extract<ValueReading, { state: 'set' }> =>
  reading.state === 'set';
