/**
 * What a file the bootstrap writes looks like: a header line that marks it
 * as the bootstrap's (so a later run knows it may edit it, and never edits a
 * hand-written file in its place), comments, then the YAML. And the one rule
 * for every file the bootstrap writes whole: only where there is no file, a
 * blank one, or one carrying the header; otherwise it refuses, naming the
 * file and what to do, before anything is written.
 */
import { Document } from 'yaml';
import { GpuInputError, type InputIssue } from '@gpu-gitops/plugin-gpu-common';
import type { StagedTree } from '../stagedTree';

export const BOOTSTRAP_HEADER =
  '# Managed by the Backstage gpu-cluster-bootstrap template.\n';

/** `value` as YAML under the header; each line of `comment` becomes a comment line. */
export function bootstrapYaml(value: unknown, comment?: string): string {
  return bootstrapDocument(new Document(value), comment);
}

/** A document (carrying comments of its own) as YAML under the header. */
export function bootstrapDocument(doc: Document, comment?: string): string {
  return bootstrapDocuments([doc], comment);
}

/** Several objects as one multi-document YAML file under the header. */
export function bootstrapDocuments(
  documents: (Document | unknown)[],
  comment?: string,
): string {
  const comments = comment
    ? comment
        .split('\n')
        .map(line => `# ${line}\n`)
        .join('')
    : '';
  const texts = documents.map(value =>
    (value instanceof Document ? value : new Document(value)).toString({
      lineWidth: 0,
    }),
  );
  return `${BOOTSTRAP_HEADER}${comments}${texts.join('---\n')}`;
}

/** True when `text` is a file the bootstrap wrote (it starts with the header). */
export function isBootstrapFile(text: string | undefined): boolean {
  return text !== undefined && text.startsWith(BOOTSTRAP_HEADER);
}

export const isBlank = (text: string | undefined) =>
  text === undefined || text.trim() === '';

/** True when the bootstrap may write a file whole over `text`: none, blank, or its own. */
export function mayWriteOver(text: string | undefined): boolean {
  return isBlank(text) || isBootstrapFile(text);
}

/**
 * The refusal of a file the bootstrap would write whole (`what` it writes
 * there) that it did not write, with `remedy`: what the team can do.
 */
export function notWrittenByBootstrap(
  path: string,
  what: string,
  remedy: string,
): InputIssue {
  return {
    path,
    rule: 'bootstrap-file-not-managed',
    message: `${path} exists and the bootstrap did not write it: the bootstrap writes ${what} there and never replaces a file it did not write. ${remedy}`,
  };
}

/** A file the bootstrap writes whole, and what to say when one it did not write is in its place. */
export interface BootstrapFileWrite {
  path: string;
  content: string;
  /** What the bootstrap writes there, e.g. "the GPU Operator's Helm values". */
  what: string;
  /** What the team can do instead, e.g. "Move it, then run the bootstrap again." */
  remedy: string;
}

/**
 * Writes every file of `files` whole, or, when any of them is there and not
 * the bootstrap's, writes none and refuses with one issue per such file.
 */
export async function writeBootstrapFiles(
  staged: StagedTree,
  files: readonly BootstrapFileWrite[],
): Promise<void> {
  const issues: InputIssue[] = [];
  for (const file of files) {
    if (!mayWriteOver(await staged.read(file.path))) {
      issues.push(notWrittenByBootstrap(file.path, file.what, file.remedy));
    }
  }
  if (issues.length > 0) throw new GpuInputError(issues);
  for (const file of files) await staged.write(file.path, file.content);
}
