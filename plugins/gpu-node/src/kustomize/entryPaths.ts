/**
 * How a kustomization's entries (resources, bases, components, patch paths,
 * generator and Helm values files) name files: relative to the folder of the
 * kustomization, or remote (a git repository or URL, which kustomize fetches
 * and this product never reads). kubernetes-sigs/kustomize
 * api/internal/loader/fileloader.go (v5.x): a local entry may not leave the
 * repository we read.
 */
import { posix } from 'node:path';

/** A remote target (git repository or URL): outside the tree. */
export function isRemoteEntry(entry: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ||
    /^(git@|github\.com\/|gitlab\.com\/|bitbucket\.org\/)/.test(entry) ||
    entry.includes('?ref=')
  );
}

/**
 * `entry` of the kustomization in `folder` ('.' for the top) as a repository
 * path, without a trailing slash; undefined when it leaves the tree or is
 * absolute.
 */
export function resolveEntry(
  folder: string,
  entry: string,
): string | undefined {
  if (posix.isAbsolute(entry)) return undefined;
  const joined = posix.normalize(
    posix.join(folder === '.' ? '' : folder, entry),
  );
  if (joined === '..' || joined.startsWith('../')) return undefined;
  return joined.replace(/\/+$/, '');
}
