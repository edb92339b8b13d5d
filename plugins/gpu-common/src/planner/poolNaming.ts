import { fnv1a32 } from './contentHash';

/**
 * Pool names end up as NodePool names and as label values
 * (`karpenter.sh/nodepool`, our pool label): DNS-1123 subdomain AND at most
 * 63 characters of `[a-z0-9.-]`.
 */
export const MAX_POOL_NAME = 63;

const NOT_NAME_CHAR = /[^a-z0-9.-]/g;

/**
 * `gpu-<model><suffix>`: `gpu-t4`, `gpu-t4-ts4`, `gpu-l4-mps8`,
 * `gpu-a100-80gb-mig-3g.40gb`, `gpu-h100-80gb-dra`. Deterministic: same
 * request and catalog, same name. Over-long names are cut and get a hash of
 * the full name, so they stay unique.
 */
export function basePoolName(modelId: string, suffix: string): string {
  const name = `gpu-${modelId}${suffix}`
    .toLowerCase()
    .replace(NOT_NAME_CHAR, '-');
  return fitName(name, MAX_POOL_NAME);
}

/** Cuts `name` to `max` characters, ending in `-<hash>` when cut. */
export function fitName(name: string, max: number): string {
  if (name.length <= max) return name;
  const hash = fnv1a32(name);
  const head = name.slice(0, max - hash.length - 1).replace(/[.-]+$/, '');
  return `${head}-${hash}`;
}

/**
 * A name not yet taken by something else: `base`, else `base-2`, `base-3`...
 * `isTaken(name)` says whether the name holds OTHER content.
 */
export function freeName(
  base: string,
  isTaken: (name: string) => boolean,
  max = MAX_POOL_NAME,
): string | undefined {
  if (!isTaken(base)) return base;
  for (let n = 2; n <= 20; n++) {
    const suffix = `-${n}`;
    const candidate = `${fitName(base, max - suffix.length)}${suffix}`;
    if (!isTaken(candidate)) return candidate;
  }
  return undefined;
}
