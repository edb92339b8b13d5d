/**
 * A JSON 6902 patch applied to one object, as kustomize's
 * PatchJson6902Transformer does (kubernetes-sigs/kustomize
 * `api/filters/patchjson6902`, v5.x, on github.com/evanphx/json-patch; RFC
 * 6902 operations on RFC 6901 pointers). The object is not changed: a copy
 * is returned. An operation that cannot apply (a missing parent, a `test`
 * that fails) fails kustomize's build; here it leaves the object as the
 * operations before it left it, and the build, run by the actions, says why.
 */
import type { PlainObject } from '../repo/yamlObjects';

type Container = Record<string, unknown> | unknown[];

/** RFC 6901: `/a/b~1c` → `['a', 'b/c']`. */
function pointer(path: unknown): string[] | undefined {
  if (typeof path !== 'string' || (path !== '' && !path.startsWith('/'))) {
    return undefined;
  }
  return path === ''
    ? []
    : path
        .slice(1)
        .split('/')
        .map(t => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function childOf(at: unknown, token: string): unknown {
  if (Array.isArray(at)) return at[Number(token)];
  return at !== null && typeof at === 'object'
    ? (at as Record<string, unknown>)[token]
    : undefined;
}

function resolve(root: unknown, tokens: string[]): unknown {
  return tokens.reduce<unknown>((at, token) => childOf(at, token), root);
}

/** The container of the pointer's last token, and that token; undefined when absent. */
function parentOf(
  root: unknown,
  tokens: string[],
): [Container, string] | undefined {
  const parent = resolve(root, tokens.slice(0, -1));
  return parent !== null && typeof parent === 'object'
    ? [parent as Container, tokens[tokens.length - 1]]
    : undefined;
}

function validIndex(list: unknown[], token: string, forAdd: boolean): boolean {
  const index = Number(token);
  return (
    /^(0|[1-9][0-9]*)$/.test(token) &&
    (forAdd ? index <= list.length : index < list.length)
  );
}

function add(root: unknown, tokens: string[], value: unknown): boolean {
  const found = parentOf(root, tokens);
  if (!found) return false;
  const [parent, token] = found;
  if (!Array.isArray(parent)) {
    parent[token] = value;
    return true;
  }
  if (token === '-') parent.push(value);
  else if (validIndex(parent, token, true)) {
    parent.splice(Number(token), 0, value);
  } else return false;
  return true;
}

function remove(root: unknown, tokens: string[]): boolean {
  const found = parentOf(root, tokens);
  if (!found) return false;
  const [parent, token] = found;
  if (Array.isArray(parent)) {
    if (!validIndex(parent, token, false)) return false;
    parent.splice(Number(token), 1);
    return true;
  }
  if (!(token in parent)) return false;
  delete parent[token];
  return true;
}

/** Applies one operation to `root` in place; false when it cannot apply. */
function applyOperation(root: unknown, operation: PlainObject): boolean {
  const path = pointer(operation.path);
  // The whole object is never replaced by a patch of one of its fields.
  if (!path || path.length === 0) return false;
  const from = pointer(operation.from);
  switch (operation.op) {
    case 'add':
      return add(root, path, structuredClone(operation.value));
    case 'remove':
      return remove(root, path);
    case 'replace':
      return (
        resolve(root, path) !== undefined &&
        remove(root, path) &&
        add(root, path, structuredClone(operation.value))
      );
    case 'copy':
    case 'move': {
      const value = from ? resolve(root, from) : undefined;
      if (value === undefined) return false;
      if (operation.op === 'move' && !remove(root, from!)) return false;
      return add(root, path, structuredClone(value));
    }
    case 'test':
      return (
        JSON.stringify(resolve(root, path)) === JSON.stringify(operation.value)
      );
    default:
      return false;
  }
}

/** `object` with `operations` applied in order, up to the first that cannot apply. */
export function applyJson6902(
  object: unknown,
  operations: readonly PlainObject[],
): unknown {
  const copy = structuredClone(object);
  for (const operation of operations) {
    if (!applyOperation(copy, operation)) break;
  }
  return copy;
}
