/**
 * The `gpu-gitops` command line: plan, render, validate and publish GPU
 * requests to a GitOps repository. `bin/gpu-gitops` runs `runCli`.
 *
 * @packageDocumentation
 */
export { runCli } from './main';
