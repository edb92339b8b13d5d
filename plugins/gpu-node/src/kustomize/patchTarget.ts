/**
 * Which objects a patch entry's `target:` selects, as kustomize's selector
 * does (kubernetes-sigs/kustomize `api/types/selector.go` and
 * `api/resource/resource.go` `IsSelected`, v5.x): kind, group, version and
 * namespace equal, `name` an anchored regular expression.
 */
import type { PlainObject } from '../repo/yamlObjects';

const metadataOf = (o: PlainObject) =>
  (o.metadata ?? {}) as { name?: unknown; namespace?: unknown };

/** The object's group and version (`v1` is the core group, ''). */
function groupVersion(object: PlainObject): [string, string] {
  const apiVersion = String(object.apiVersion);
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? ['', apiVersion]
    : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/** `pattern` as kustomize matches a name: the whole name, else literally. */
function nameMatches(pattern: string, name: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(name);
  } catch {
    return pattern === name;
  }
}

/**
 * Whether `target` selects `object`. Label and annotation selectors are not
 * evaluated: the target is taken to select every object its other fields
 * do (a reader errs on seeing a patch apply, the import on keeping).
 */
export function targetSelects(
  target: PlainObject,
  object: PlainObject,
): boolean {
  const [group, version] = groupVersion(object);
  const { name, namespace } = metadataOf(object);
  if (target.kind !== undefined && target.kind !== object.kind) return false;
  if (target.group !== undefined && target.group !== group) return false;
  if (target.version !== undefined && target.version !== version) return false;
  if (
    typeof target.namespace === 'string' &&
    namespace !== undefined &&
    target.namespace !== namespace
  ) {
    return false;
  }
  return (
    typeof target.name !== 'string' ||
    nameMatches(target.name, String(name ?? ''))
  );
}
