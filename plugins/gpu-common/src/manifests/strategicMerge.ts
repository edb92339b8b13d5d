/**
 * Applies a strategic-merge patch of the shape `buildWorkloadPatch` writes to
 * plain data, as `kubectl patch --type strategic` and Kustomize `patches:` do
 * (k8s.io/apimachinery pkg/util/strategicpatch): maps merge key by key, a
 * `null` value deletes the key, lists with a `patchMergeKey` in the Kubernetes
 * OpenAPI merge item by item on that key, every other list is replaced.
 *
 * Used to apply the product's GPU patch in place, where Kustomize does not
 * run (plain manifests, the product's own workload files), so both paths
 * mean the same change. A merged list keeps the base's order (new items
 * last), as `kubectl patch` does; the patch names the items Kustomize needs
 * to keep that order too (`patchListOrder.ts`).
 *
 * Directives are never written into a manifest: `$setElementOrder/<list>`
 * orders that list as the directive says (items it does not name follow, in
 * their order), as the API server does; any other `$` key is refused.
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

const SET_ELEMENT_ORDER = '$setElementOrder/';

/** A `$` key other than `$setElementOrder/…`: a directive this applier does not carry out. */
function refuseDirective(key: string): void {
  if (key.startsWith('$') && !key.startsWith(SET_ELEMENT_ORDER)) {
    throw new Error(
      `strategic merge: the directive "${key}" is not supported, so the patch is not applied`,
    );
  }
}

/** A patch value added where the base had nothing: its `null`s delete nothing, its directives are not data. */
function stripNulls(value: Json): Json {
  if (!isMap(value)) return value;
  Object.keys(value).forEach(refuseDirective);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k, v]) => v !== null && !k.startsWith(SET_ELEMENT_ORDER))
      .map(([k, v]) => [k, stripNulls(v)]),
  );
}

/** The list `field` of `result` in the order a `$setElementOrder/<field>` directive gives. */
function applyElementOrder(
  result: Record<string, Json>,
  field: string,
  order: Json,
): void {
  const list = result[field];
  const mergeKey = MERGE_KEYS[field];
  if (!Array.isArray(list) || !mergeKey || !Array.isArray(order)) return;
  const rank = new Map(
    order.map((item, i) => [isMap(item) ? item[mergeKey] : undefined, i]),
  );
  const position = (item: Json, i: number) =>
    rank.get(isMap(item) ? item[mergeKey] : undefined) ?? order.length + i;
  result[field] = list
    .map((item, i) => ({ item, at: position(item, i) }))
    .sort((a, b) => a.at - b.at)
    .map(({ item }) => item);
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
    refuseDirective(k);
    if (k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (value === null) delete result[k];
    else
      result[k] =
        k in base ? strategicMerge(base[k], value, k) : stripNulls(value);
  }
  for (const [k, order] of Object.entries(patch)) {
    if (k.startsWith(SET_ELEMENT_ORDER)) {
      applyElementOrder(result, k.slice(SET_ELEMENT_ORDER.length), order);
    }
  }
  return result;
}
