export * from './createForge';
export { ForgeError, ForgeHttpClient, forgeErrorMessage } from './http';
export type { RetryOptions, ForgeHttpOptions, ForgeResponse } from './http';
export * from './github';
export * from './gitlab';
export * from './gitea';
export * from './local';
export * from './repoPath';
