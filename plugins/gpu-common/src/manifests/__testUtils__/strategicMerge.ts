/** TEST-ONLY entry kept for the tests that merge patches: the production applier. */
export { strategicMerge } from '../strategicMerge';
