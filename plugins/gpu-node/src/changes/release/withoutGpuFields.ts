/**
 * Undoes the product's in-place GPU patch of a plain manifest (see
 * gpu-common `buildWorkloadPatch`): the request's annotations go, and every
 * field the patch replaced is put back as the manifest's record says
 * (`replacedFields.ts`: GPU limits the team had written, its own selectors,
 * tolerations, replica count). A manifest patched before the product kept
 * that record loses what the patch added: its pool's `nodeSelector` entry
 * and GPU toleration (its value: the pool's name, or the taint value of the
 * pool's nodes, `poolTaintValues`), the GPU container's GPU resources (or DRA claim) and
 * the pod's DRA claim. Maps and lists left empty go too, so a manifest that
 * had none of these before is byte for byte what it was.
 */
import { isMap, isScalar, isSeq, type Document } from 'yaml';
import {
  workloadShape,
  poolNodeLabel,
  type ClusterProfile,
  type GpuAnnotationKeys,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn } from '../../repo/yamlObjects';
import { readReplacedFields, restoreReplacedFields } from '../replacedFields';

/** Name of the pod-level resource claim a DRA request adds (gpu-common podPlacement.ts). */
const DRA_CLAIM_NAME = 'gpu';

const isGpuResource = (name: string) =>
  name.startsWith('nvidia.com/') || name.endsWith('.nvidia.com');

type Path = (string | number)[];

class Edit {
  changed = false;
  constructor(readonly doc: Document) {}

  /** The plain value at `path`. */
  get(path: Path): unknown {
    const node = this.doc.getIn(path, true) as
      { toJSON?: () => unknown } | undefined;
    return node?.toJSON ? node.toJSON() : node;
  }

  delete(path: Path): void {
    if (this.doc.hasIn(path)) {
      this.doc.deleteIn(path);
      this.changed = true;
    }
  }

  /** Deletes `path` when it holds an empty map or list, then its parents likewise, up to `stop` levels. */
  pruneEmpty(path: Path, stop: number): void {
    for (let p = path; p.length > stop; p = p.slice(0, -1)) {
      const node = this.doc.getIn(p, true);
      const empty = (isMap(node) || isSeq(node)) && node.items.length === 0;
      if (!empty) return;
      this.delete(p);
    }
  }

  /** Deletes the keys of the map at `path` that `pick` chooses. */
  deleteKeys(path: Path, pick: (key: string) => boolean): void {
    const node = this.doc.getIn(path, true);
    if (!isMap(node)) return;
    for (const item of [...node.items]) {
      const key = String(isScalar(item.key) ? item.key.value : item.key);
      if (pick(key)) this.delete([...path, key]);
    }
  }

  /** Deletes the items of the list at `path` that `pick` chooses. */
  deleteItems(path: Path, pick: (item: unknown) => boolean): void {
    const node = this.doc.getIn(path, true);
    if (!isSeq(node)) return;
    const kept = node.items.filter(
      item => !pick((item as { toJSON?: () => unknown }).toJSON?.() ?? item),
    );
    if (kept.length === node.items.length) return;
    node.items = kept;
    this.changed = true;
  }
}

/** Returns true when anything changed. Only a workload the request patched (its annotation) is touched. */
export function withoutGpuFields(
  doc: Document,
  kind: WorkloadKind,
  requestId: string,
  keys: GpuAnnotationKeys,
  cluster: Pick<
    ClusterProfile,
    'gpuTaintKey' | 'provider' | 'clusterApi' | 'labelDomain'
  >,
  poolTaintValues: readonly string[] = [],
): boolean {
  const template = workloadShape(kind).podTemplate;
  const podAnnotations = [...template, 'metadata', 'annotations'];
  if (getIn(doc.toJS(), ...podAnnotations, keys.request) !== requestId) {
    return false;
  }
  const edit = new Edit(doc);
  const pool = edit.get([...podAnnotations, keys.pool]);
  const record = readReplacedFields(doc.toJS(), keys.replaced);
  if (record && restoreReplacedFields(doc, kind, record)) edit.changed = true;
  const ours = new Set([
    keys.request,
    keys.pool,
    keys.sharingMode,
    keys.replaced,
  ]);
  edit.deleteKeys(['metadata', 'annotations'], key => ours.has(key));
  edit.pruneEmpty(['metadata', 'annotations'], 1);
  edit.deleteKeys(podAnnotations, key => ours.has(key));
  // The pod template's metadata the request added for its annotations goes
  // with them: a manifest that had none gets none back.
  edit.pruneEmpty(podAnnotations, template.length);
  if (record) return edit.changed;
  removeAddedFields(edit, template, pool, cluster, poolTaintValues);
  return edit.changed;
}

/** What an in-place patch without a record added (manifests patched before the record). */
function removeAddedFields(
  edit: Edit,
  template: string[],
  pool: unknown,
  cluster: Pick<
    ClusterProfile,
    'gpuTaintKey' | 'provider' | 'clusterApi' | 'labelDomain'
  >,
  poolTaintValues: readonly string[],
): void {
  const podSpec = [...template, 'spec'];
  const selector = [...podSpec, 'nodeSelector'];
  const poolLabel = poolNodeLabel(cluster);
  if (edit.get([...selector, poolLabel]) === pool) {
    edit.delete([...selector, poolLabel]);
    edit.pruneEmpty(selector, selector.length - 1);
  }
  const tolerations = [...podSpec, 'tolerations'];
  // The patch tolerated the pool's GPU taint with its value: the pool's name
  // on the product's pools, whatever a team's pool uses (`true`, `present`).
  edit.deleteItems(
    tolerations,
    t =>
      getIn(t, 'key') === cluster.gpuTaintKey &&
      (getIn(t, 'value') === pool ||
        (getIn(t, 'operator') === 'Equal' &&
          poolTaintValues.includes(String(getIn(t, 'value'))))),
  );
  edit.pruneEmpty(tolerations, tolerations.length - 1);

  const containers = edit.get([...podSpec, 'containers']);
  (Array.isArray(containers) ? containers : []).forEach((_, i) => {
    const resources = [...podSpec, 'containers', i, 'resources'];
    for (const part of ['limits', 'requests']) {
      edit.deleteKeys([...resources, part], isGpuResource);
      edit.pruneEmpty([...resources, part], resources.length);
    }
    edit.deleteItems(
      [...resources, 'claims'],
      c => getIn(c, 'name') === DRA_CLAIM_NAME,
    );
    edit.pruneEmpty([...resources, 'claims'], resources.length - 1);
  });
  const claims = [...podSpec, 'resourceClaims'];
  edit.deleteItems(claims, c => getIn(c, 'name') === DRA_CLAIM_NAME);
  edit.pruneEmpty(claims, claims.length - 1);
}
