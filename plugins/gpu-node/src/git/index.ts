export * from './GitOpsRepository';
export * from './branchName';
export * from './errors';
export {
  gitEnvironment,
  basicAuthHeader,
  isHttpRemote,
  isLocalRemote,
  assertNoUrlCredentials,
} from './auth';
export type { GitAuth } from './auth';
