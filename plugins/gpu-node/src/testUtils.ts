/**
 * Test utilities of `@gpu-gitops/plugin-gpu-node` for the packages built on
 * it (the CLI, the backend plugin): real git remotes, a git smart-HTTP server,
 * the processes still talking to it, and a small GitOps tree that validates
 * clean. Imported as `@gpu-gitops/plugin-gpu-node/testUtils`, the way
 * Backstage packages publish theirs (e.g. `@backstage/plugin-catalog-node/testUtils`).
 *
 * @packageDocumentation
 */
export { createBareRemote } from './git/__testUtils__/bareRemote';
export type { BareRemote, RemoteFile } from './git/__testUtils__/bareRemote';
export { startGitHttpServer } from './git/__testUtils__/gitHttpServer';
export type {
  GitHttpRequest,
  GitHttpServer,
} from './git/__testUtils__/gitHttpServer';
export {
  processesLeftTalkingTo,
  processesTalkingTo,
} from './git/__testUtils__/processes';
export { gpuRepoFiles } from './validate/__fixtures__/gpuRepo';
export { capoRepoFiles } from './validate/__fixtures__/realRepos';
export {
  importFixtureRepoFiles,
  legacyKarpenterRepoFiles,
} from './import/__testUtils__/legacyRepoFiles';
export type { ImportFixtureShape } from './import/__testUtils__/legacyRepoFiles';
