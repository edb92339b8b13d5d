export { DriftBadge } from './DriftBadge';
