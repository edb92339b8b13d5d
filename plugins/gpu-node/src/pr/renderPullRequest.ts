/**
 * Renders the PR title, body and commit message from handlebars templates.
 * Defaults live in ./templates; an organisation overrides any of them with
 * its own template text. Output is always redacted.
 */
import Handlebars from 'handlebars';
import type { GpuModel, Plan } from '@gpu-gitops/plugin-gpu-common';
import type { FileChange } from '../changes/types';
import { Redactor } from '../redact';
import { DEFAULT_BODY_TEMPLATE } from './templates/body.hbs';
import { DEFAULT_COMMIT_MESSAGE_TEMPLATE } from './templates/commitMessage.hbs';
import { DEFAULT_TITLE_TEMPLATE } from './templates/title.hbs';
import {
  buildPullRequestView,
  type ExistingWorkloadFacts,
  PullRequestView,
} from './view';

/** @public */
export interface PullRequestTemplates {
  title?: string;
  body?: string;
  commitMessage?: string;
}

/** @public */
export interface RenderPullRequestInput {
  plan: Plan;
  files: Pick<FileChange, 'path' | 'action'>[];
  /** The plan's GPU model from the catalog (names, MIG geometry for the layout picture). */
  model?: GpuModel;
  templates?: PullRequestTemplates;
  redactor?: Redactor;
  /** The existing workload a patch request changes. */
  existing?: ExistingWorkloadFacts;
  /** Said at the top of the body when the product updated the PR on its own. */
  updateNote?: string;
  /**
   * The node label naming the pool's nodes in the rollout commands (gpu-common
   * `poolNodeLabel` of the cluster); Karpenter's `karpenter.sh/nodepool` when absent.
   */
  poolLabel?: string;
}

/** @public */
export interface RenderedPullRequest {
  title: string;
  body: string;
  commitMessage: string;
  view: PullRequestView;
}

const handlebars = Handlebars.create();

/**
 * Each template text compiled once: compiling the default body held the
 * event loop for about 70 ms of every re-render in the updater's pass (scale
 * bench profile). An organisation has a few templates; the oldest compiled
 * are dropped past `MAX_COMPILED` all the same.
 */
const compiled = new Map<string, HandlebarsTemplateDelegate>();
const MAX_COMPILED = 32;

function compiledTemplate(source: string): HandlebarsTemplateDelegate {
  let template = compiled.get(source);
  if (!template) {
    template = handlebars.compile(source, { noEscape: true });
    compiled.set(source, template);
    if (compiled.size > MAX_COMPILED) {
      compiled.delete(compiled.keys().next().value!);
    }
  }
  return template;
}

function render(
  name: keyof PullRequestTemplates,
  source: string,
  view: PullRequestView,
): string {
  try {
    return compiledTemplate(source)(view);
  } catch (error) {
    throw new Error(
      `templates.${name}: invalid handlebars template: ${(error as Error).message}`,
    );
  }
}

/** @public */
export function renderPullRequest(
  input: RenderPullRequestInput,
): RenderedPullRequest {
  const redactor = input.redactor ?? new Redactor();
  const view = buildPullRequestView(input);
  const t = input.templates ?? {};
  const title = render('title', t.title ?? DEFAULT_TITLE_TEMPLATE, view)
    .replace(/\s+/g, ' ')
    .trim();
  const body = render('body', t.body ?? DEFAULT_BODY_TEMPLATE, view).replace(
    /\n{3,}/g,
    '\n\n',
  );
  const commitMessage = render(
    'commitMessage',
    t.commitMessage ?? DEFAULT_COMMIT_MESSAGE_TEMPLATE,
    view,
  );
  return {
    title: redactor.redact(title),
    body: redactor.redact(body),
    commitMessage: redactor.redact(commitMessage),
    view,
  };
}
