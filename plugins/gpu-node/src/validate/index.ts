export { hasSchema, schemaError } from './schemas';
export {
  validateGitOpsTree,
  validateGitOpsTreeReport,
} from './validateGitOpsTree';
export type {
  Finding,
  GitOpsTreeReport,
  ValidateGitOpsTreeOptions,
} from './validateGitOpsTree';
