/**
 * Applies a strategic-merge patch of the shape `buildWorkloadPatch` writes to
 * plain data, as `kubectl patch --type strategic` and Kustomize `patches:` do
 * (k8s.io/apimachinery pkg/util/strategicpatch): maps merge key by key, a
 * `null` value deletes the key, lists with a `patchMergeKey` in the Kubernetes
 * OpenAPI merge item by item on that key, every other list is replaced.
 *
 * Used to apply the product's GPU patch in place, where Kustomize does not
 * run (plain manifests, the product's own workload files), so both paths
 * mean the same change.
 */

/** Pod-spec lists that merge by a key (their `x-kubernetes-patch-merge-key`). */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  env: 'name',
  ports: 'containerPort',
  resourceClaims: 'name',
  imagePullSecrets: 'name',
};

type Json = unknown;

function isMap(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mergeByKey(base: Json[], patch: Json[], mergeKey: string): Json[] {
  const result = [...base];
  for (const item of patch) {
    const id = isMap(item) ? item[mergeKey] : undefined;
    const index = result.findIndex(b => isMap(b) && b[mergeKey] === id);
    if (index >= 0) result[index] = strategicMerge(result[index], item);
    else result.push(stripNulls(item));
  }
  return result;
}

/** A patch value added where the base had nothing: its `null`s delete nothing. */
function stripNulls(value: Json): Json {
  if (!isMap(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, stripNulls(v)]),
  );
}

/** @public */
export function strategicMerge(
  base: unknown,
  patch: unknown,
  key?: string,
): unknown {
  const mergeKey = key === undefined ? undefined : MERGE_KEYS[key];
  if (Array.isArray(base) && Array.isArray(patch) && mergeKey) {
    return mergeByKey(base, patch, mergeKey);
  }
  if (!isMap(base) || !isMap(patch)) return stripNulls(patch);
  const result: Record<string, Json> = { ...base };
  for (const [k, value] of Object.entries(patch)) {
    if (value === null) delete result[k];
    else
      result[k] =
        k in base ? strategicMerge(base[k], value, k) : stripNulls(value);
  }
  return result;
}
