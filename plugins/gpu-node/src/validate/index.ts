export { hasSchema, schemaError } from './schemas';
export { validateGitOpsTree } from './validateGitOpsTree';
export type { Finding, ValidateGitOpsTreeOptions } from './validateGitOpsTree';
