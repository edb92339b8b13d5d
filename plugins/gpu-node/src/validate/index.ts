export { hasSchema, schemaError } from './schemas';
