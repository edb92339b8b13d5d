/**
 * Renders an import's report: the pull request's title, body (markdown) and
 * commit message, and the same report as plain text for the CLI (see
 * templates/import.hbs.ts). One view, two renderings, every output redacted.
 */
import Handlebars from 'handlebars';
import type { ImportChange } from '../import/buildImportChange';
import { Redactor } from '../redact';
import { buildImportView, type ImportReportView } from './importView';
import {
  DEFAULT_IMPORT_BODY_TEMPLATE,
  DEFAULT_IMPORT_COMMIT_MESSAGE_TEMPLATE,
  DEFAULT_IMPORT_TEXT_TEMPLATE,
  DEFAULT_IMPORT_TITLE_TEMPLATE,
} from './templates/import.hbs';

const handlebars = Handlebars.create();
const compile = (template: string) =>
  handlebars.compile(template, { noEscape: true });
const title = compile(DEFAULT_IMPORT_TITLE_TEMPLATE);
const body = compile(DEFAULT_IMPORT_BODY_TEMPLATE);
const commitMessage = compile(DEFAULT_IMPORT_COMMIT_MESSAGE_TEMPLATE);
const text = compile(DEFAULT_IMPORT_TEXT_TEMPLATE);

/** @public */
export interface RenderedImportReport {
  title: string;
  /** Markdown: the pull request's description. */
  body: string;
  commitMessage: string;
  /** Plain text: what the CLI prints. */
  text: string;
  view: ImportReportView;
}

/** @public */
export function renderImportReport(input: {
  change: Pick<
    ImportChange,
    | 'cluster'
    | 'clusterFolder'
    | 'changeSet'
    | 'converted'
    | 'adoptedPools'
    | 'requests'
    | 'findings'
  >;
  redactor?: Redactor;
}): RenderedImportReport {
  const redactor = input.redactor ?? new Redactor();
  const view = buildImportView(input.change);
  return {
    title: redactor.redact(title(view)),
    body: redactor.redact(body(view)),
    commitMessage: redactor.redact(commitMessage(view)),
    text: redactor.redact(text(view)),
    view,
  };
}
