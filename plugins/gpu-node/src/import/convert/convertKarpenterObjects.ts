/**
 * Converts the Karpenter objects of one cluster together: pools and node
 * classes depend on each other (v1 moved the kubelet settings from the pool
 * to its node class, and a pool whose node class cannot be converted is left
 * as it is with it). Pure: objects in, objects and findings out.
 */
import type { PlainObject } from '../../repo/yamlObjects';
import type { Conversion } from './conversion';
import { objectLabel, type ImportFinding } from './findings';
import { placeKubelet } from './kubeletToNodeClass';
import {
  currentRole,
  deprecation,
  isNodeClassObject,
  isUnknownKarpenterObject,
  legacyApi,
  type KarpenterRole,
  type LegacyApi,
} from './legacyKinds';
import { definedNodeClasses, type NodeClassContext } from './nodeClassRef';

/** One Karpenter object of the repository, under a key of the caller's. */
export interface KarpenterInput {
  key: string;
  value: PlainObject;
}

/**
 * What became of one object: `converted` (a legacy object, now v1),
 * `updated` (a v1 node class that took its pools' kubelet settings), `kept`
 * (v1 already), `not-converted` (left as it is; a finding says why).
 */
export interface KarpenterOutput {
  key: string;
  status: 'converted' | 'updated' | 'kept' | 'not-converted';
  role?: KarpenterRole;
  /** The object to write (the input itself unless converted or updated). */
  value: PlainObject;
  findings: ImportFinding[];
}

export interface PoolKubelet {
  /** Key of the pool. */
  key: string;
  kubelet: PlainObject;
  /** Where the legacy pool kept them (for the report). */
  field: string;
}

/**
 * `keepLegacy`: objects that must stay as they are whatever their fields
 * (key → why, e.g. a patch of them cannot be converted); their pools stay
 * with them as with any class that is not converted. `nodeClasses`: the
 * cluster's node classes beyond `inputs` (the whole folder, when `inputs`
 * are one kustomize root's) and its profile's provider's class.
 */
export function convertKarpenterObjects(
  inputs: KarpenterInput[],
  keepLegacy: ReadonlyMap<string, string> = new Map(),
  nodeClasses: NodeClassContext = {},
): KarpenterOutput[] {
  const context = withInputClasses(inputs, nodeClasses);
  const outputs: KarpenterOutput[] = [];
  const kubelets: PoolKubelet[] = [];
  for (const input of inputs) {
    const legacy = legacyApi(input.value);
    if (legacy) {
      const kept = keepLegacy.get(input.key);
      const { output, kubelet } = legacyOutput(input, legacy, kept, context);
      outputs.push(output);
      if (kubelet) kubelets.push(kubelet);
      continue;
    }
    const output = currentOrUnknownOutput(input);
    if (output) outputs.push(output);
  }
  leavePoolsOfUnconvertedClasses(outputs, inputs);
  placeKubelet(outputs, kubelets);
  return outputs;
}

/**
 * A legacy object converted, with the kubelet settings its pool hands to its
 * node class; or left as it is (`kept`: why the caller keeps it legacy).
 */
function legacyOutput(
  { key, value }: KarpenterInput,
  legacy: LegacyApi,
  kept: string | undefined,
  context: NodeClassContext,
): { output: KarpenterOutput; kubelet?: PoolKubelet } {
  const result: Conversion =
    kept === undefined
      ? legacy.convert(value, context)
      : { refused: kept, findings: [] };
  if ('refused' in result) {
    const refusal: ImportFinding = {
      kind: 'not-converted',
      object: objectLabel(value),
      message: result.refused,
    };
    return {
      output: {
        key,
        status: 'not-converted',
        role: legacy.role,
        value,
        findings: [...result.findings, refusal],
      },
    };
  }
  const output: KarpenterOutput = {
    key,
    status: 'converted',
    role: legacy.role,
    value: result.converted,
    findings: result.findings,
  };
  if (!result.kubelet) return { output };
  const field =
    value.kind === 'Provisioner'
      ? 'spec.kubeletConfiguration'
      : 'spec.template.spec.kubelet';
  return { output, kubelet: { key, kubelet: result.kubelet, field } };
}

/** A v1 pool or node class, kept (noted when its API is deprecated); an unknown Karpenter object, reported. */
function currentOrUnknownOutput({
  key,
  value,
}: KarpenterInput): KarpenterOutput | undefined {
  const role = currentRole(value);
  if (role) {
    const deprecated = deprecation(value);
    return {
      key,
      status: 'kept',
      role,
      value,
      findings: deprecated
        ? [{ kind: 'note', object: objectLabel(value), message: deprecated }]
        : [],
    };
  }
  if (!isUnknownKarpenterObject(value)) return undefined;
  return {
    key,
    status: 'not-converted',
    value,
    findings: [
      {
        kind: 'not-understood',
        object: objectLabel(value),
        message: `${String(value.apiVersion)} ${String(value.kind)} is not a pool or node class the import converts; left as it is`,
      },
    ],
  };
}

/**
 * A pool whose node class stays legacy would refer to an EC2NodeClass that
 * does not exist: it stays as it is too, until its class can be converted.
 */
function leavePoolsOfUnconvertedClasses(
  outputs: KarpenterOutput[],
  inputs: KarpenterInput[],
): void {
  const refusedClasses = new Set(
    outputs
      .filter(o => o.role === 'nodeClass' && o.status === 'not-converted')
      .map(o => nodeClassName(o.value)),
  );
  for (const [i, out] of outputs.entries()) {
    if (out.role !== 'pool' || out.status !== 'converted') continue;
    const ref = (out.value.spec as PlainObject | undefined)?.template as
      { spec?: { nodeClassRef?: { name?: string } } } | undefined;
    const className = ref?.spec?.nodeClassRef?.name;
    if (!className || !refusedClasses.has(className)) continue;
    const original = inputs.find(input => input.key === out.key)!.value;
    outputs[i] = {
      key: out.key,
      status: 'not-converted',
      role: 'pool',
      value: original,
      findings: [
        {
          kind: 'not-converted',
          object: objectLabel(original),
          message: `its node class "${className}" is not converted (see its finding); the pool stays as it is with it`,
        },
      ],
    };
  }
}

/** The node classes of `inputs` beside those the caller knows. */
export function withInputClasses(
  inputs: readonly KarpenterInput[],
  nodeClasses: NodeClassContext,
): NodeClassContext {
  const defined = definedNodeClasses(
    inputs.map(({ value }) => ({
      value,
      isNodeClass: isNodeClassObject(value),
    })),
  );
  for (const [name, kinds] of nodeClasses.defined ?? []) {
    const known = defined.get(name) ?? [];
    for (const kind of kinds) {
      if (!known.some(k => k.group === kind.group && k.kind === kind.kind)) {
        known.push(kind);
      }
    }
    defined.set(name, known);
  }
  return { ...nodeClasses, defined };
}

export function nodeClassName(value: PlainObject): string {
  return String((value.metadata as PlainObject | undefined)?.name ?? '');
}
