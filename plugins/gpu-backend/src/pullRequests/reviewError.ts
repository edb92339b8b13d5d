import { ConflictError, NotFoundError } from '@backstage/errors';
import type { GpuPullRequestRefusal } from '@gpu-gitops/plugin-gpu-common';
import { LocalPullRequestError } from '@gpu-gitops/plugin-gpu-node';

/**
 * The review's refusals as HTTP errors: 404 for an unknown branch, 409 for a
 * conflict or a moved head. The error's own `refusal` property travels in the
 * body (Backstage serializes an error's own properties) as
 * `GpuPullRequestRefusalResponse`: what changed and what to do, for the page.
 */
export async function reviewError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof LocalPullRequestError)) throw error;
    const refused =
      error.kind === 'not-found'
        ? new NotFoundError(error.message)
        : new ConflictError(error.message);
    const refusal: GpuPullRequestRefusal = {
      kind: error.kind,
      changed: error.changed,
      todo: error.todo,
      conflicts: [...error.conflicts],
    };
    Object.assign(refused, { refusal });
    throw refused;
  }
}
