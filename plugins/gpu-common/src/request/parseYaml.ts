import { parseAllDocuments, visit } from 'yaml';
import { GpuInputError } from '../errors';
import { readPlainYamlDocuments } from '../yaml/readPlainYaml';
import { parseGpuRequest } from './schema';
import type { GpuRequest } from './types';

/** Largest request document we read, in UTF-8 bytes. */
export const MAX_REQUEST_YAML_BYTES = 1024 * 1024;

const utf8 = new TextEncoder();

function fail(rule: string, message: string): never {
  throw new GpuInputError([{ path: '', rule, message }]);
}

/**
 * Parses one YAML GpuRequest document. Refuses, before any value is built:
 * oversize input, several documents, anchors and aliases (YAML bombs; a
 * request never needs them), duplicate keys, and anything but a mapping.
 *
 * @public
 */
export function parseGpuRequestYaml(text: string): GpuRequest {
  if (typeof text !== 'string') fail('type', 'the request must be YAML text');
  // A UTF-16 length above the limit is always over it in UTF-8; below a third
  // of it, always under. Encode only in between.
  if (
    text.length > MAX_REQUEST_YAML_BYTES ||
    (text.length * 3 > MAX_REQUEST_YAML_BYTES &&
      utf8.encode(text).length > MAX_REQUEST_YAML_BYTES)
  ) {
    fail(
      'max-size',
      `the request is larger than ${MAX_REQUEST_YAML_BYTES} bytes`,
    );
  }
  // The common case, one plain mapping, takes the fast reader (it declines
  // anchors, aliases and anything else unusual); every refusal below is
  // worded by `yaml`.
  const plain = readPlainYamlDocuments(text);
  if (plain?.length === 1 && isMapping(plain[0])) {
    return parseGpuRequest(plain[0]);
  }
  const documents = parseAllDocuments(text, {
    uniqueKeys: true,
    prettyErrors: false,
    merge: false,
  });
  if (documents.length === 0) fail('yaml-empty', 'the request is empty');
  if (documents.length > 1) {
    fail(
      'yaml-multi-document',
      `the request must be one YAML document, found ${documents.length}`,
    );
  }
  const document = documents[0];
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const line = first.linePos?.[0]?.line;
    fail(
      'yaml-syntax',
      `the request is not valid YAML${line ? ` (line ${line})` : ''}: ${first.code}`,
    );
  }
  let anchorOrAlias = false;
  visit(document, {
    Alias() {
      anchorOrAlias = true;
      return visit.BREAK;
    },
    Node(_key, node) {
      if (node.anchor) {
        anchorOrAlias = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (anchorOrAlias) {
    fail(
      'yaml-alias',
      'YAML anchors and aliases (&, *) are not allowed in a request',
    );
  }
  const value: unknown = document.toJS({ maxAliasCount: 0 });
  if (!isMapping(value)) {
    fail(
      'yaml-mapping',
      'the request must be a YAML mapping (key: value pairs)',
    );
  }
  return parseGpuRequest(value);
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
