/**
 * The deterministic branch of a request: one request, one branch, so a re-run
 * updates its own PR instead of opening a second one.
 *
 * @public
 */
export function requestBranchName(namespace: string, name: string): string {
  return `gpu/${namespace}-${name}`;
}

/** The trailer that marks a commit as ours, for this request. */
export function requestTrailer(namespace: string, name: string): string {
  return `Gpu-Request: ${namespace}/${name}`;
}
