/**
 * Kustomize patches of legacy Karpenter objects, converted with them: once a
 * v1beta1 NodePool or EC2NodeClass of a base becomes v1, an overlay's patch
 * that still names `karpenter.sh/v1beta1` matches nothing, and kustomize
 * refuses the build ("failed to find unique target for patch"). A patch is
 * converted only where the v1beta1 → v1 change is a rename or a move that a
 * patch can express on its own (the v1 conversion webhooks:
 * `pkg/apis/v1/nodepool_conversion.go`, kubernetes-sigs/karpenter v1.0.0;
 * `pkg/apis/v1/ec2nodeclass_conversion.go`, aws/karpenter-provider-aws
 * v1.0.0):
 *
 * - NodePool: `nodeClassRef.apiVersion` → `nodeClassRef.group`;
 *   `disruption.expireAfter` → `template.spec.expireAfter`;
 *   `consolidationPolicy: WhenUnderutilized` → `WhenEmptyOrUnderutilized`
 *   with `consolidateAfter: 0s` (v1beta1 forbade a consolidateAfter with it);
 *   every other field keeps its path.
 * - EC2NodeClass: every field keeps its path, but the AMI choice
 *   (`amiFamily`, `amiSelectorTerms`), which v1 derives together.
 *
 * A patch that sets what v1 moved out of the object (a NodePool's
 * `template.spec.kubelet`, now on the node class) or dropped
 * (`template.spec.resources`), changes the AMI choice, or patches a v1alpha5
 * Provisioner / AWSNodeTemplate (whose fields v1 restructured) is refused
 * with the reason: the import then leaves the patched object and its patches
 * as they are, and the report says so.
 */
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';
import { copy } from './fieldReader';

/** A patch turned into its v1 form, or why it cannot be. */
export type PatchConversion = { converted: PlainObject } | { refused: string };

/** A JSON6902 patch: its target and operations. */
export interface JsonPatch {
  target: PlainObject;
  operations: PlainObject[];
}

export type JsonPatchConversion =
  { converted: JsonPatch } | { refused: string };

type Path = string[];

/** Where a v1beta1 leaf goes in v1, and its v1 value; or why a patch cannot say it. */
type LeafMapping =
  { path: Path; value?: (legacy: unknown) => unknown } | { refused: string };

const CURRENT_API: Record<string, string> = {
  'karpenter.sh/v1beta1 NodePool': 'karpenter.sh/v1',
  'karpenter.k8s.aws/v1beta1 EC2NodeClass': 'karpenter.k8s.aws/v1',
};

/** v1alpha5 kinds: v1 restructured every field of them, so no patch is converted. */
const RESTRUCTURED: Record<string, string> = {
  'karpenter.sh/v1alpha5 Provisioner': 'NodePool',
  'karpenter.k8s.aws/v1alpha1 AWSNodeTemplate': 'EC2NodeClass',
};

const startsWith = (path: Path, prefix: Path) =>
  prefix.every((key, i) => path[i] === key);

function nodePoolLeaf(path: Path): LeafMapping {
  const templateSpec = ['spec', 'template', 'spec'];
  if (startsWith(path, [...templateSpec, 'kubelet'])) {
    return {
      refused:
        'it sets spec.template.spec.kubelet, which Karpenter v1 moved to the node class (spec.kubelet of the EC2NodeClass)',
    };
  }
  if (startsWith(path, [...templateSpec, 'resources'])) {
    return {
      refused:
        'it sets spec.template.spec.resources, which a v1 NodePool does not have',
    };
  }
  if (startsWith(path, [...templateSpec, 'nodeClassRef', 'apiVersion'])) {
    return {
      path: [...templateSpec, 'nodeClassRef', 'group'],
      value: v => (typeof v === 'string' ? v.split('/')[0] : v),
    };
  }
  if (startsWith(path, ['spec', 'disruption', 'expireAfter'])) {
    return { path: [...templateSpec, 'expireAfter'] };
  }
  if (startsWith(path, ['spec', 'disruption', 'consolidationPolicy'])) {
    return {
      path,
      value: v => (v === 'WhenUnderutilized' ? 'WhenEmptyOrUnderutilized' : v),
    };
  }
  return { path };
}

function ec2NodeClassLeaf(path: Path): LeafMapping {
  if (
    startsWith(path, ['spec', 'amiFamily']) ||
    startsWith(path, ['spec', 'amiSelectorTerms'])
  ) {
    return {
      refused:
        'it changes the AMI choice (spec.amiFamily / spec.amiSelectorTerms), which Karpenter v1 derives from both together',
    };
  }
  return { path };
}

const LEAF_MAPPINGS: Record<string, (path: Path) => LeafMapping> = {
  'karpenter.sh/v1beta1 NodePool': nodePoolLeaf,
  'karpenter.k8s.aws/v1beta1 EC2NodeClass': ec2NodeClassLeaf,
};

/** `<apiVersion> <kind>`, the key the conversions are listed by. */
export function apiKey(apiVersion: unknown, kind: unknown): string {
  return `${String(apiVersion)} ${String(kind)}`;
}

/** Every leaf of `value` below `at`; an empty map or list is a leaf (it replaces). */
function leaves(value: unknown, at: Path): { path: Path; value: unknown }[] {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, [...at, k]));
  }
  return [{ path: at, value }];
}

function setIn(target: PlainObject, path: Path, value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(at[key])) at[key] = {};
    at = at[key] as PlainObject;
  }
  at[path[path.length - 1]] = value;
}

function restructuredRefusal(key: string): string {
  return `it patches a ${key}, whose fields Karpenter restructured in the ${RESTRUCTURED[key]} (a patch of it cannot be converted on its own)`;
}

/** `spec` of a patch mapped leaf by leaf; a refusal names the first leaf that cannot be. */
function mapSpec(
  key: string,
  spec: unknown,
): { spec: PlainObject } | { refused: string } {
  const mapLeaf = LEAF_MAPPINGS[key];
  const out: PlainObject = {};
  for (const leaf of leaves(spec, ['spec'])) {
    const mapping = mapLeaf(leaf.path);
    if ('refused' in mapping) return mapping;
    const value = mapping.value ? mapping.value(leaf.value) : leaf.value;
    setIn(out, mapping.path, copy(value));
  }
  return { spec: (out.spec as PlainObject | undefined) ?? {} };
}

/**
 * `consolidationPolicy: WhenUnderutilized` came without a consolidateAfter
 * (v1beta1 forbade one); v1 requires it, and the webhook sets `0s`.
 */
function withConsolidateAfter(legacySpec: unknown, spec: PlainObject) {
  const disruption = isPlainObject(legacySpec)
    ? legacySpec.disruption
    : undefined;
  if (
    isPlainObject(disruption) &&
    disruption.consolidationPolicy === 'WhenUnderutilized' &&
    disruption.consolidateAfter === undefined
  ) {
    (spec.disruption as PlainObject).consolidateAfter = '0s';
  }
}

/**
 * A strategic-merge patch document of a legacy Karpenter object, in v1.
 * Undefined when the document is not one (nothing to convert).
 */
export function convertStrategicMergePatch(
  patch: PlainObject,
): PatchConversion | undefined {
  const key = apiKey(patch.apiVersion, patch.kind);
  if (key in RESTRUCTURED) return { refused: restructuredRefusal(key) };
  const apiVersion = CURRENT_API[key];
  if (apiVersion === undefined) return undefined;
  const converted: PlainObject = { ...copy(patch), apiVersion };
  if (patch.spec !== undefined) {
    const mapped = mapSpec(key, patch.spec);
    if ('refused' in mapped) return mapped;
    withConsolidateAfter(patch.spec, mapped.spec);
    converted.spec = mapped.spec;
  }
  return { converted };
}

/** `/spec/a~1b/0` → ['spec', 'a/b', '0'] (RFC 6901). */
function pointerPath(pointer: string): Path {
  return pointer
    .split('/')
    .slice(1)
    .map(p => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function pointerOf(path: Path): string {
  return `/${path.map(p => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/**
 * One JSON patch operation at `path` with `value` (if any), mapped: each
 * leaf of the value must land under the same new path, so the operation
 * stays one operation.
 */
function mapOperation(
  key: string,
  operation: PlainObject,
): { converted: PlainObject } | { refused: string } {
  const mapLeaf = LEAF_MAPPINGS[key];
  const out: PlainObject = { ...copy(operation) };
  for (const field of ['path', 'from'] as const) {
    const pointer = operation[field];
    if (typeof pointer !== 'string') continue;
    const path = pointerPath(pointer);
    const own = mapLeaf(path);
    if ('refused' in own) return own;
    if (field === 'path' && 'value' in operation) {
      // A value holding a field v1 moves elsewhere cannot stay one operation.
      for (const leaf of leaves(operation.value, path)) {
        const mapping = mapLeaf(leaf.path);
        if ('refused' in mapping) return mapping;
        if (!startsWith(mapping.path, own.path)) {
          return {
            refused: `its operation on ${pointer} sets ${pointerOf(leaf.path)}, which Karpenter v1 moved to ${pointerOf(mapping.path)}`,
          };
        }
      }
      const mapped: PlainObject = {};
      for (const leaf of leaves(operation.value, path)) {
        const mapping = mapLeaf(leaf.path) as {
          path: Path;
          value?: (v: unknown) => unknown;
        };
        const value = mapping.value ? mapping.value(leaf.value) : leaf.value;
        setIn(
          mapped,
          ['value', ...mapping.path.slice(own.path.length)],
          copy(value),
        );
      }
      out.value = mapped.value;
    }
    out[field] = pointerOf(own.path);
  }
  if (
    key === 'karpenter.sh/v1beta1 NodePool' &&
    typeof operation.path === 'string' &&
    pointerPath(operation.path).join('/') ===
      'spec/disruption/consolidationPolicy' &&
    operation.value === 'WhenUnderutilized'
  ) {
    return {
      refused:
        'it sets consolidationPolicy WhenUnderutilized, which Karpenter v1 names WhenEmptyOrUnderutilized and pairs with consolidateAfter 0s (a second operation the patch does not have)',
    };
  }
  return { converted: out };
}

/**
 * A JSON6902 patch of the legacy object whose API is `objectApi`
 * (`karpenter.sh/v1beta1 NodePool`: the object its target selects, which
 * the import converts), in v1: every operation's paths, and the target's
 * version when it names one. Undefined when `objectApi` is not a legacy
 * Karpenter API.
 */
export function convertJsonPatch(
  patch: JsonPatch,
  objectApi: string,
): JsonPatchConversion | undefined {
  if (objectApi in RESTRUCTURED) {
    return { refused: restructuredRefusal(objectApi) };
  }
  if (!(objectApi in LEAF_MAPPINGS)) return undefined;
  const operations: PlainObject[] = [];
  for (const operation of patch.operations) {
    const mapped = mapOperation(objectApi, operation);
    if ('refused' in mapped) return mapped;
    operations.push(mapped.converted);
  }
  const target = copy(patch.target);
  if (target.version !== undefined) target.version = 'v1';
  return { converted: { target, operations } };
}
