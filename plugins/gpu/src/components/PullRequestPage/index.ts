export { PullRequestPage } from './PullRequestPage';
