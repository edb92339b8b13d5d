import { isPlainObject } from '../repo/yamlObjects';

/**
 * The fields a CustomResourceDefinition's structural schema keeps. The API
 * server prunes every field its schema does not name, silently, unless the
 * schema says `x-kubernetes-preserve-unknown-fields` (Kubernetes docs,
 * "Extend the Kubernetes API with CustomResourceDefinitions": field pruning).
 * A NodePool written with v1beta1's `spec.template.spec.kubelet` under
 * `karpenter.sh/v1` is stored without it, and the kubelet settings are lost.
 */
export interface FieldTree {
  /** The named fields; every other key of the object is pruned (unless `additionalProperties`). */
  properties?: Record<string, FieldTree>;
  /** A map's values (e.g. `spec.limits`). */
  additionalProperties?: FieldTree;
  /** A list's items. */
  items?: FieldTree;
  /** `x-kubernetes-preserve-unknown-fields`: nothing below is pruned. */
  keepsUnknown?: true;
}

/**
 * The field tree of one `openAPIV3Schema`. A scalar is `{}`; an object with
 * neither properties nor additionalProperties keeps no field (`properties: {}`).
 * The top level's `apiVersion`, `kind` and `metadata` are the API server's
 * own (ObjectMeta), never pruned by the CRD: left out.
 */
export function fieldTreeOf(schema: unknown, top = true): FieldTree {
  if (!isPlainObject(schema)) return {};
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) {
    return { keepsUnknown: true };
  }
  const tree: FieldTree = {};
  const { properties, additionalProperties, items } = schema;
  if (isPlainObject(properties)) {
    tree.properties = Object.fromEntries(
      Object.entries(properties)
        .filter(
          ([key]) => !top || !['apiVersion', 'kind', 'metadata'].includes(key),
        )
        .map(([key, value]) => [key, fieldTreeOf(value, false)]),
    );
  }
  if (isPlainObject(additionalProperties)) {
    tree.additionalProperties = fieldTreeOf(additionalProperties, false);
  }
  if (isPlainObject(items)) tree.items = fieldTreeOf(items, false);
  if (
    schema.type === 'object' &&
    !tree.properties &&
    !tree.additionalProperties
  ) {
    tree.properties = {};
  }
  return tree;
}

/**
 * The paths of `value` the API server would prune (`spec.template.spec.kubelet`,
 * `spec.requirements[0].foo`). A strategic-merge directive (`$patch`,
 * `$setElementOrder/…`) is kustomize's, gone before the API server sees it.
 * A scalar where the schema wants an object is a schema error, not pruning.
 */
export function prunedPaths(
  value: unknown,
  tree: FieldTree,
  path = '',
): string[] {
  if (tree.keepsUnknown) return [];
  if (Array.isArray(value)) {
    return tree.items
      ? value.flatMap((item, i) =>
          prunedPaths(item, tree.items!, `${path}[${i}]`),
        )
      : [];
  }
  if (!isPlainObject(value)) return [];
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (path === '' && ['apiVersion', 'kind', 'metadata'].includes(key))
      continue;
    if (key.startsWith('$')) continue;
    const at = joinPath(path, key);
    const named = tree.properties?.[key] ?? tree.additionalProperties;
    if (named) out.push(...prunedPaths(child, named, at));
    else if (tree.properties) out.push(at);
  }
  return out;
}

/** `a.b`, or `a["nvidia.com/gpu"]` for a key that is no plain name. */
function joinPath(path: string, key: string): string {
  if (!/^[A-Za-z_][\w-]*$/.test(key)) return `${path}["${key}"]`;
  return path === '' ? key : `${path}.${key}`;
}
