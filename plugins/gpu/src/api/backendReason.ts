import { ResponseError } from '@backstage/errors';

/**
 * Why a call to the gpu backend failed, in the backend's words: a
 * `ResponseError`'s own message is only the HTTP status ("Request failed
 * with 409 Conflict"), while the error body says what changed and what to
 * do. Any other error (no network) keeps its message.
 */
export function backendReason(error: unknown): string {
  if (error instanceof ResponseError) {
    return error.body?.error?.message || error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
