/**
 * Why a choice cannot be made on a cluster, in the request's words. Its own
 * file: each capability rule (`capabilities.ts`, `draCapability.ts`,
 * `gkeCapability.ts`, `eksAutoMode.ts`) answers with it, and the rules must
 * not import the module that composes them.
 */

/**
 *  Why a choice cannot be made: the request field, a rule id and a sentence.
 *
 * @public
 */
export interface Unavailable {
  path: 'spec.gpu.sharing' | 'spec.gpu.model';
  rule: string;
  reason: string;
}
