/**
 * What a request's in-place patch replaced in a plain manifest, so that its
 * release puts it back field by field: a GPU limit the team had written
 * (`nvidia.com/gpu: 1` that became a time slice), its own node selectors and
 * affinity, a toleration list, an image, a replica count.
 *
 * The record is an annotation on the workload itself, `<labelDomain>/replaced`:
 * a JSON map from each replaced field's path to its value before the request
 * (`null`: the field was absent). Why there and not in the request record
 * (`requests/<ns>/<name>.yaml`): the record must travel with what it restores.
 * A manifest is moved, renamed or edited by its team between request and
 * release; the annotation moves with it, shows in the same review as the
 * change it undoes (as `kubectl.kubernetes.io/last-applied-configuration`
 * does for `kubectl apply`), and the request record keeps the schema every
 * reader of requests parses strictly. A workload patched through a
 * kustomization needs no record: its release removes the patch file, and
 * kustomize builds the workload as it was.
 */
import { isMap, isSeq, type Document, type Node } from 'yaml';
import {
  workloadShape,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn } from '../repo/yamlObjects';
import { deepEqual } from './canonical';
import { syncNode } from './yamlFile';

/** Field path (`spec.template.spec.nodeSelector`, `…containers[api].resources`) → value before the request, `null` when absent. */
export type ReplacedFields = Record<string, unknown>;

type Path = (string | number)[];

/** Pod-spec fields a request may replace. */
const POD_SPEC_FIELDS = [
  'nodeSelector',
  'affinity',
  'tolerations',
  'resourceClaims',
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

/** What `after` replaced of `before`, field by field (only the fields a request may change). */
export function replacedFields(
  kind: WorkloadKind,
  before: unknown,
  after: unknown,
): ReplacedFields {
  const record: ReplacedFields = {};
  for (const path of trackedPaths(kind, [before])) {
    const was = valueAt(before, path);
    if (!deepEqual(was ?? null, valueAt(after, path) ?? null)) {
      record[path] = was ?? null;
    }
  }
  return record;
}

/** The record a manifest carries, or undefined when it carries none (or one that does not parse). */
export function readReplacedFields(
  value: unknown,
  annotation: string,
): ReplacedFields | undefined {
  const text = getIn(value, 'metadata', 'annotations', annotation);
  if (typeof text !== 'string') return undefined;
  try {
    const parsed = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as ReplacedFields)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Orders the map entries of `node` as `value` has them, all the way down (a restored key goes back where it was). */
function orderLike(node: unknown, value: unknown): void {
  if (isMap(node) && typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    const rank = (item: { key: unknown }) => {
      const key = (item.key as { value?: unknown })?.value ?? item.key;
      const at = keys.indexOf(String(key));
      return at < 0 ? keys.length : at;
    };
    node.items.sort((a, b) => rank(a) - rank(b));
    for (const item of node.items) {
      const key = (item.key as { value?: unknown })?.value ?? item.key;
      orderLike(item.value, (value as Record<string, unknown>)[String(key)]);
    }
  } else if (isSeq(node) && Array.isArray(value)) {
    node.items.forEach((item, i) => orderLike(item, value[i]));
  }
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

/** Puts back every field the record names; true when anything changed. */
export function restoreReplacedFields(
  doc: Document,
  kind: WorkloadKind,
  record: ReplacedFields,
): boolean {
  const keep = workloadShape(kind).podTemplate.length + 1;
  let changed = false;
  for (const [text, value] of Object.entries(record)) {
    const path = resolve(doc.toJS(), text);
    if (path === undefined) continue;
    if (value === null) {
      if (!doc.hasIn(path)) continue;
      deleteAndPrune(doc, path, keep);
      changed = true;
      continue;
    }
    if (syncNode(doc, path, value)) changed = true;
    orderLike(doc.getIn(path, true), value);
  }
  return changed;
}
