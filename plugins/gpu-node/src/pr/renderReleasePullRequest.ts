/** Renders a release pull request's title, body and commit message (see templates/release.hbs.ts). */
import Handlebars from 'handlebars';
import type {
  ReleaseLeftObject,
  ReleasePlan,
} from '@gpu-gitops/plugin-gpu-common';
import type { FileChange } from '../changes/types';
import { Redactor } from '../redact';
import { buildReleaseView, type ReleasePullRequestView } from './releaseView';
import {
  DEFAULT_RELEASE_BODY_TEMPLATE,
  DEFAULT_RELEASE_COMMIT_MESSAGE_TEMPLATE,
  DEFAULT_RELEASE_TITLE_TEMPLATE,
} from './templates/release.hbs';

const handlebars = Handlebars.create();
const title = handlebars.compile(DEFAULT_RELEASE_TITLE_TEMPLATE, {
  noEscape: true,
});
const body = handlebars.compile(DEFAULT_RELEASE_BODY_TEMPLATE, {
  noEscape: true,
});
const commitMessage = handlebars.compile(
  DEFAULT_RELEASE_COMMIT_MESSAGE_TEMPLATE,
  { noEscape: true },
);

/** @public */
export interface RenderedReleasePullRequest {
  title: string;
  body: string;
  commitMessage: string;
  view: ReleasePullRequestView;
}

/** @public */
export function renderReleasePullRequest(input: {
  plan: ReleasePlan;
  files: Pick<FileChange, 'path' | 'action'>[];
  /** Why the release (e.g. the request expired), said first. */
  reason?: string;
  /** Objects the product did not write beside the workload: named as staying. */
  leaves?: ReleaseLeftObject[];
  redactor?: Redactor;
}): RenderedReleasePullRequest {
  const redactor = input.redactor ?? new Redactor();
  const view = buildReleaseView(
    input.plan,
    input.files,
    input.reason,
    input.leaves,
  );
  return {
    title: redactor.redact(title(view)),
    body: redactor.redact(body(view)),
    commitMessage: redactor.redact(commitMessage(view)),
    view,
  };
}
