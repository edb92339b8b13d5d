/**
 * A managed topology's worker entry edited as the MachineDeployment it
 * becomes, so the pool writers (a request's ledger and size, a release's
 * shrink) edit an adopted topology pool as any Cluster API pool: the entry's
 * `metadata` is its MachineDeployment's (Cluster API v1.11
 * `api/core/v1beta2/cluster_types.go` `MachineDeploymentTopology`: its
 * `metadata` is applied to the MachineDeployment and its Machines), its
 * `replicas` the MachineDeployment's `spec.replicas`, its `name` the pool's
 * (`repo/topologyMachineDeployments.ts`). The view's contents are the
 * entry's own YAML node inside the Cluster's document: an edit through it
 * is an edit of the Cluster's file, every other line as the team wrote it.
 */
import { Document, isMap, isSeq, type YAMLMap } from 'yaml';
import { MACHINE_DEPLOYMENT } from '../repo/machineDeploymentPools';
import { TOPOLOGY_ENTRIES_PATH } from '../repo/topologyMachineDeployments';

/** Where a MachineDeployment field is on the entry; undefined: the entry has no such field. */
function entryPath(path: Iterable<unknown> | null): unknown[] | undefined {
  const keys = [...(path ?? [])];
  const [first, second] = keys;
  if (first === 'metadata' && second === 'name') {
    return keys.length === 2 ? ['name'] : undefined;
  }
  if (first === 'metadata') return keys;
  if (first === 'spec' && second === 'replicas' && keys.length === 2) {
    return ['replicas'];
  }
  return undefined;
}

/** A topology entry as the Document of its MachineDeployment (`entryPath` maps the fields it has). */
export class TopologyEntryDocument extends Document {
  constructor(entry: YAMLMap) {
    super();
    this.contents = entry;
  }

  override get(key: unknown, keepScalar?: boolean): unknown {
    if (key === 'kind') return MACHINE_DEPLOYMENT;
    return this.getIn([key], keepScalar);
  }

  override getIn(path: Iterable<unknown> | null, keepScalar?: boolean): any {
    const at = entryPath(path);
    return at ? super.getIn(at, keepScalar) : undefined;
  }

  override hasIn(path: Iterable<unknown> | null): boolean {
    const at = entryPath(path);
    return at ? super.hasIn(at) : false;
  }

  override setIn(path: Iterable<unknown> | null, value: unknown): void {
    const at = entryPath(path);
    if (!at) {
      throw new Error(
        `a topology entry has no field ${[...(path ?? [])].join('.')}`,
      );
    }
    super.setIn(at, value);
  }

  override deleteIn(path: Iterable<unknown> | null): boolean {
    const at = entryPath(path);
    return at ? super.deleteIn(at) : false;
  }

  /** The entry as the MachineDeployment it becomes: kind, name, metadata, replicas. */
  override toJS(): any {
    const entry = super.toJS() ?? {};
    return {
      kind: MACHINE_DEPLOYMENT,
      metadata: { ...(entry.metadata ?? {}), name: entry.name },
      spec: entry.replicas === undefined ? {} : { replicas: entry.replicas },
    };
  }
}

/** The worker entry `name` of the topology Cluster `doc` holds, as its MachineDeployment; undefined when it holds none. */
export function topologyEntryDocument(
  doc: Document,
  name: string,
): TopologyEntryDocument | undefined {
  if (doc.get('kind') !== 'Cluster') return undefined;
  const entries = doc.getIn(TOPOLOGY_ENTRIES_PATH);
  if (!isSeq(entries)) return undefined;
  const entry = entries.items.find(
    item => isMap(item) && item.get('name') === name,
  );
  return entry ? new TopologyEntryDocument(entry as YAMLMap) : undefined;
}
