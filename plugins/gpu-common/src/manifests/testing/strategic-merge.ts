/**
 * TEST-ONLY: a small strategic-merge-patch applier for workload patches, so a
 * patch can be validated as the full object Kustomize would produce. Maps
 * merge recursively; `containers`, `initContainers`, `volumes`, `env` and
 * `resourceClaims` merge by `name` (their patchMergeKey); other lists,
 * including `tolerations`, are replaced, as in Kubernetes.
 */
const MERGE_BY_NAME = new Set([
  'containers',
  'initContainers',
  'volumes',
  'env',
  'resourceClaims',
]);

type Json = unknown;

function isMap(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mergeByName(base: Json[], patch: Json[]): Json[] {
  const result = base.map(item => item);
  for (const item of patch) {
    const name = isMap(item) ? item.name : undefined;
    const index = result.findIndex(b => isMap(b) && b.name === name);
    if (index >= 0) result[index] = strategicMerge(result[index], item);
    else result.push(item);
  }
  return result;
}

export function strategicMerge(base: Json, patch: Json, key?: string): Json {
  if (
    Array.isArray(base) &&
    Array.isArray(patch) &&
    key &&
    MERGE_BY_NAME.has(key)
  ) {
    return mergeByName(base, patch);
  }
  if (!isMap(base) || !isMap(patch)) return patch;
  const result: Record<string, Json> = { ...base };
  for (const [k, value] of Object.entries(patch)) {
    result[k] = k in base ? strategicMerge(base[k], value, k) : value;
  }
  return result;
}
