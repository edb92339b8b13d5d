/**
 * What the first request on a hand-written pool adds to it, so that the
 * release of the last request that holds it takes it back: the ledger
 * (`<labelDomain>/requests`) and the limit floor the team's own limit became
 * (`<labelDomain>/limit-floor`). The pool's limit needs no record: the floor
 * is the team's limit, and a released pool's limit comes back to it (in the
 * scalar the team wrote, see `writeCapacity`).
 *
 * The record is the pool's own `<labelDomain>/replaced` annotation (as for a
 * plain manifest patched in place, `replacedFields.ts`): the list of the
 * annotations the request added. It is written only when the pool had no
 * ledger, i.e. no request and no import had claimed it. A pool the import
 * adopted carries no record on purpose: its ledger, floor and description
 * are the adoption the team merged, so a release keeps them with the
 * remaining ledger (even an empty one: the pool stays adopted, and the next
 * request still reads its floor instead of guessing it again).
 */
import { isSeq, parseDocument, stringify, type Document } from 'yaml';
import type { GpuAnnotationKeys } from '@gpu-gitops/plugin-gpu-common';
import type { YamlFile } from './yamlFile';

type AnnotationKeys = Pick<
  GpuAnnotationKeys,
  'requests' | 'limitFloor' | 'replaced'
>;

const annotationPath = (key: string) => ['metadata', 'annotations', key];

/** The capacity annotations `doc` does not carry yet, when it has no ledger (else none: it is claimed already). */
export function unclaimedAnnotations(
  doc: Document,
  keys: AnnotationKeys,
): string[] {
  if (doc.hasIn(annotationPath(keys.requests))) return [];
  return [keys.requests, keys.limitFloor].filter(
    key => !doc.hasIn(annotationPath(key)),
  );
}

/** Records which of `absent` the request has now written on `doc`. */
export function recordAddedAnnotations(
  file: YamlFile,
  doc: Document,
  absent: string[],
  keys: AnnotationKeys,
): void {
  const added = absent.filter(key => doc.hasIn(annotationPath(key)));
  if (added.length === 0) return;
  doc.setIn(
    annotationPath(keys.replaced),
    stringify({ added }, { collectionStyle: 'flow' }).trim(),
  );
  file.modified = true;
}

/** Takes back what the first request added, once no request holds the pool; a pool without a record keeps everything. */
export function removeAddedAnnotations(
  file: YamlFile,
  doc: Document,
  keys: AnnotationKeys,
): void {
  const text = doc.getIn(annotationPath(keys.replaced));
  if (typeof text !== 'string') return;
  const added = parseDocument(text).get('added', true);
  if (!isSeq(added)) return;
  for (const key of [...added.toJSON(), keys.replaced]) {
    if (typeof key === 'string' && doc.hasIn(annotationPath(key))) {
      doc.deleteIn(annotationPath(key));
      file.modified = true;
    }
  }
  const annotations = doc.getIn(['metadata', 'annotations'], true) as
    { items?: unknown[] } | undefined;
  if (annotations?.items?.length === 0) {
    doc.deleteIn(['metadata', 'annotations']);
  }
}
