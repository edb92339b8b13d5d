export * from './GitOpsRepository';
export { cachedCloneDir } from './cachedClone';
export * from './publishBranch';
export * from './branchName';
export * from './errors';
export {
  runGit,
  GitTimeoutError,
  DEFAULT_GIT_TIMEOUT_MS,
  formatSeconds,
} from './runGit';
export type { RunGitOptions } from './runGit';
export {
  gitEnvironment,
  basicAuthHeader,
  isHttpRemote,
  isLocalRemote,
} from './auth';
export type { GitAuth } from './auth';
export {
  resolveGitCredentials,
  remoteHost,
  gitTokenUsername,
} from './resolveGitCredentials';
export type { GitCredentials } from './resolveGitCredentials';
export { forgeApiBaseUrl } from './forgeApiBaseUrl';
