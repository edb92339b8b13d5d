/**
 * What a request's in-place patch replaced in a plain manifest, so that its
 * release puts it back field by field: a GPU limit the team had written
 * (`nvidia.com/gpu: 1` that became a time slice), its own node selectors and
 * affinity, a toleration list, an image, a replica count.
 *
 * The record is an annotation on the workload itself, `<labelDomain>/replaced`:
 * a YAML map (a block string) from each replaced field's path to `before`,
 * its node before the request as written (comments, quoting and flow style
 * kept, so the release gives back the same bytes; `null`: absent), and
 * `request`, what the request wrote there: the release puts back only what
 * still holds the request's value, so a team's later edit stays.
 *
 * Why there and not in the request record (`requests/<ns>/<name>.yaml`): the
 * record must travel with what it restores.
 * A manifest is moved, renamed or edited by its team between request and
 * release; the annotation moves with it, shows in the same review as the
 * change it undoes (as `kubectl.kubernetes.io/last-applied-configuration`
 * does for `kubectl apply`), and the request record keeps the schema every
 * reader of requests parses strictly. A workload patched through a
 * kustomization needs no record: its release removes the patch file, and
 * kustomize builds the workload as it was.
 */
import {
  Document,
  isMap,
  isScalar,
  isSeq,
  Pair,
  parseDocument,
  YAMLMap,
  type Node,
} from 'yaml';
import {
  workloadShape,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn } from '../repo/yamlObjects';
import { deepEqual, YAML_OPTIONS } from './canonical';

type Path = (string | number)[];

/** Pod-spec fields a request may replace. */
const POD_SPEC_FIELDS = [
  'nodeSelector',
  'affinity',
  'tolerations',
  'resourceClaims',
  'schedulerName',
];
/** Container fields a request may replace. */
const CONTAINER_FIELDS = ['image', 'resources'];

const CONTAINER = /^containers\[([^\]]+)\]$/;

function containerNames(podSpec: unknown): string[] {
  const list = getIn(podSpec, 'containers');
  return Array.isArray(list) ? list.map(c => String(getIn(c, 'name'))) : [];
}

/** The paths a record may name, as text, for a workload of `kind`. */
function trackedPaths(kind: WorkloadKind, objects: unknown[]): string[] {
  const shape = workloadShape(kind);
  const podSpec = [...shape.podTemplate, 'spec'].join('.');
  const names = new Set(
    objects.flatMap(o =>
      containerNames(getIn(o, ...shape.podTemplate, 'spec')),
    ),
  );
  return [
    'metadata.labels',
    shape.replicas.join('.'),
    ...POD_SPEC_FIELDS.map(f => `${podSpec}.${f}`),
    ...[...names].flatMap(name =>
      CONTAINER_FIELDS.map(f => `${podSpec}.containers[${name}].${f}`),
    ),
  ];
}

/** The path in `value` (container names resolved to their index), or undefined when a container is gone. */
function resolve(value: unknown, text: string): Path | undefined {
  const path: Path = [];
  let node = value;
  for (const part of text.split('.')) {
    const container = CONTAINER.exec(part);
    if (container) {
      const list = getIn(node, 'containers');
      const index = Array.isArray(list)
        ? list.findIndex(c => getIn(c, 'name') === container[1])
        : -1;
      if (index < 0) return undefined;
      path.push('containers', index);
      node = (list as unknown[])[index];
    } else {
      path.push(part);
      node = getIn(node, part);
    }
  }
  return path;
}

function valueAt(value: unknown, text: string): unknown {
  const path = resolve(value, text);
  return path === undefined ? undefined : getIn(value, ...path);
}

/**
 * The record of what `after` replaces of the document as it is now, field by
 * field (only the fields a request may change): a YAML map from each field's
 * path to `before`, its node as written (comments, quoting and flow style
 * kept, so a release gives back the same bytes; `null`: absent), and
 * `request`, what the request wrote there (so the release gives back only
 * what still holds the request's value, never a later edit of the team's).
 */
export function recordReplaced(
  doc: Document,
  kind: WorkloadKind,
  after: unknown,
): string {
  const before = doc.toJS();
  const record = new Document({});
  const map = record.contents as YAMLMap;
  for (const text of trackedPaths(kind, [before])) {
    const was = valueAt(before, text);
    const now = valueAt(after, text);
    if (deepEqual(was ?? null, now ?? null)) continue;
    const node =
      was === undefined
        ? null
        : (doc.getIn(resolve(before, text)!, true) as Node).clone();
    const entry = record.createNode({ before: null, request: now ?? null });
    (entry as YAMLMap).set('before', node);
    map.set(text, entry);
  }
  return record.toString(YAML_OPTIONS);
}

/** The record a manifest carries (see `recordReplaced`), or undefined when it carries none it can read. */
export function readReplacedFields(
  value: unknown,
  annotation: string,
): YAMLMap | undefined {
  const text = getIn(value, 'metadata', 'annotations', annotation);
  if (typeof text !== 'string') return undefined;
  const record = parseDocument(text);
  return record.errors.length === 0 && isMap(record.contents)
    ? record.contents
    : undefined;
}

/** Deletes `path`, then each parent left empty, down to `keep` levels. */
function deleteAndPrune(doc: Document, path: Path, keep: number): void {
  doc.deleteIn(path);
  for (let p = path.slice(0, -1); p.length > keep; p = p.slice(0, -1)) {
    const node = doc.getIn(p, true) as Node | undefined;
    const empty = (isMap(node) || isSeq(node)) && node.items.length === 0;
    if (!empty) return;
    doc.deleteIn(p);
  }
}

const plain = (node: unknown): unknown =>
  node === null || node === undefined
    ? null
    : ((node as { toJSON?: () => unknown }).toJSON?.() ?? node);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const keyOf = (pair: { key: unknown }) =>
  String(isScalar(pair.key) ? pair.key.value : pair.key);

/**
 * What a field becomes on release: `before` where it still holds what the
 * request wrote; where the team changed it since, theirs — key by key inside
 * maps (a memory limit they raised stays, the GPU limit they had comes back,
 * in its place). Undefined: the field goes.
 */
function restored(
  before: Node | null,
  request: unknown,
  current: Node | undefined,
): Node | undefined {
  if (deepEqual(plain(current), request ?? null)) return before ?? undefined;
  if (!isMap(before) || !isMap(current) || !isRecord(request)) return current;
  const result = new YAMLMap();
  for (const pair of before.items) {
    const key = keyOf(pair);
    const value = restored(
      pair.value as Node | null,
      request[key],
      current.get(key, true) as Node | undefined,
    );
    if (value !== undefined) result.items.push(new Pair(pair.key, value));
  }
  for (const pair of current.items) {
    const key = keyOf(pair);
    if (before.has(key)) continue;
    const value = restored(null, request[key], pair.value as Node);
    if (value !== undefined) result.items.push(pair);
  }
  result.flow = current.flow;
  return result;
}

/** Puts back every field the record names that still holds the request's value; true when anything changed. */
export function restoreReplacedFields(
  doc: Document,
  kind: WorkloadKind,
  record: YAMLMap,
): boolean {
  const keep = workloadShape(kind).podTemplate.length + 1;
  let changed = false;
  for (const pair of record.items) {
    const path = resolve(doc.toJS(), keyOf(pair));
    if (path === undefined || !isMap(pair.value)) continue;
    const entry = pair.value;
    const current = doc.getIn(path, true) as Node | undefined;
    const node = restored(
      entry.get('before', true) as Node | null,
      plain(entry.get('request', true)),
      current,
    );
    if (node === current) continue;
    if (node === undefined || (isScalar(node) && node.value === null)) {
      if (!doc.hasIn(path)) continue;
      deleteAndPrune(doc, path, keep);
    } else {
      doc.setIn(path, node);
    }
    changed = true;
  }
  return changed;
}
