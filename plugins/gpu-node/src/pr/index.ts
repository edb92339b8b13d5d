export * from './renderPullRequest';
export { buildPullRequestView } from './view';
export type { PullRequestView } from './view';
export { migLayoutPicture } from './migLayoutPicture';
export { isolationTradeOff } from './isolation';
export { rolloutChecklist } from './checklist';
export { DEFAULT_TITLE_TEMPLATE } from './templates/title.hbs';
export { DEFAULT_BODY_TEMPLATE } from './templates/body.hbs';
export { DEFAULT_COMMIT_MESSAGE_TEMPLATE } from './templates/commitMessage.hbs';
