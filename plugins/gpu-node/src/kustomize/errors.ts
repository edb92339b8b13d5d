/**
 * What can go wrong when we run kustomize. Both are typed so callers tell
 * "the tool is missing" (nothing was checked: never report a clean tree)
 * from "the tree does not build" (a finding about the tree).
 */

/**
 *  No kustomize binary could be found; nothing was built.
 *
 * @public
 */
export class KustomizeNotFoundError extends Error {
  readonly code = 'KUSTOMIZE_NOT_FOUND';

  constructor(message: string) {
    super(message);
    this.name = 'KustomizeNotFoundError';
  }
}

/** `kustomize build` failed, timed out or printed something that is not YAML. */
export class KustomizeBuildError extends Error {
  readonly code = 'KUSTOMIZE_BUILD_FAILED';

  constructor(
    /** The folder that was built. */
    readonly dir: string,
    /** kustomize's own words (first useful lines of its stderr), or why we stopped it. */
    readonly detail: string,
    /**
     * We stopped kustomize (its time or output limit): the build says
     * nothing about the tree, so no caller may take it for a broken tree.
     */
    readonly stopped = false,
  ) {
    super(`kustomize build ${dir} failed: ${detail}`);
    this.name = 'KustomizeBuildError';
  }
}

/** @public */
export function isKustomizeNotFoundError(
  error: unknown,
): error is KustomizeNotFoundError {
  return (
    error instanceof KustomizeNotFoundError ||
    (error as { code?: unknown } | null)?.code === 'KUSTOMIZE_NOT_FOUND'
  );
}

export function isKustomizeBuildError(
  error: unknown,
): error is KustomizeBuildError {
  return (
    error instanceof KustomizeBuildError ||
    (error as { code?: unknown } | null)?.code === 'KUSTOMIZE_BUILD_FAILED'
  );
}
