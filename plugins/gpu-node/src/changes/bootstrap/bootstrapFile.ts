/**
 * What a file the bootstrap writes looks like: a header line that marks it
 * as the bootstrap's (so a later run knows it may edit it, and never edits a
 * hand-written file in its place), comments, then the YAML.
 */
import { Document } from 'yaml';

export const BOOTSTRAP_HEADER =
  '# Managed by the Backstage gpu-cluster-bootstrap template.\n';

/** `value` as YAML under the header; each line of `comment` becomes a comment line. */
export function bootstrapYaml(value: unknown, comment?: string): string {
  return bootstrapDocument(new Document(value), comment);
}

/** A document (carrying comments of its own) as YAML under the header. */
export function bootstrapDocument(doc: Document, comment?: string): string {
  const comments = comment
    ? comment
        .split('\n')
        .map(line => `# ${line}\n`)
        .join('')
    : '';
  return `${BOOTSTRAP_HEADER}${comments}${doc.toString({ lineWidth: 0 })}`;
}

/** True when `text` is a file the bootstrap wrote (it starts with the header). */
export function isBootstrapFile(text: string | undefined): boolean {
  return text !== undefined && text.startsWith(BOOTSTRAP_HEADER);
}
