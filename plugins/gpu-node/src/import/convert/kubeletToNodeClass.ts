/**
 * v1 keeps kubelet settings on the EC2NodeClass, not the NodePool
 * (`website/content/en/v1.0/upgrading/v1-migration.md`, "Kubelet
 * Configuration Migration"): the conversion webhook does NOT move them,
 * because several pools may share one class. The import moves them when
 * every pool of the class wants the same settings; when pools sharing a class
 * want different ones (a pool without kubelet settings wants Karpenter's
 * defaults), nothing is moved and each pool's settings are reported with the
 * guide's remedy: one EC2NodeClass per distinct kubelet configuration.
 */
import { deepEqual } from '../../changes/canonical';
import type { PlainObject } from '../../repo/yamlObjects';
import type { KarpenterOutput, PoolKubelet } from './convertKarpenterObjects';
import { nodeClassName } from './convertKarpenterObjects';
import { objectLabel, type ImportFinding } from './findings';

function refName(pool: PlainObject): string | undefined {
  const spec = pool.spec as
    { template?: { spec?: { nodeClassRef?: { name?: unknown } } } } | undefined;
  const name = spec?.template?.spec?.nodeClassRef?.name;
  return typeof name === 'string' ? name : undefined;
}

/**
 * Only an EC2NodeClass takes a v1beta1 NodePool's kubelet block as it is;
 * Azure's AKSNodeClass has a kubelet block of other fields (and `maxPods`
 * beside it: Azure/karpenter-provider-azure v1.14.2
 * `pkg/apis/v1beta1/aksnodeclass.go`).
 */
const takesKubelet = (nodeClass: PlainObject) =>
  nodeClass.kind === 'EC2NodeClass';

const describe = (kubelet: PlainObject | undefined) =>
  kubelet ? JSON.stringify(kubelet) : "Karpenter's defaults";

export function placeKubelet(
  outputs: KarpenterOutput[],
  kubelets: PoolKubelet[],
): void {
  const pools = outputs.filter(
    o => o.role === 'pool' && o.status !== 'not-converted',
  );
  const moving = kubelets.filter(k =>
    pools.some(p => p.key === k.key && p.status === 'converted'),
  );
  const classNames = new Set(
    moving.map(k => refName(pools.find(p => p.key === k.key)!.value)),
  );
  for (const className of classNames) {
    if (className === undefined) continue;
    const place = classPlace(className, outputs, pools, moving);
    for (const { pool, kubelet } of place.wanted) {
      const move = moving.find(k => k.key === pool.key);
      if (move) pool.findings.push(kubeletFinding(pool, move, kubelet, place));
    }
    const { nodeClass, agreed } = place;
    if (
      nodeClass &&
      takesKubelet(nodeClass.value) &&
      agreed &&
      !deepEqual(place.current ?? null, agreed)
    ) {
      nodeClass.value = {
        ...nodeClass.value,
        spec: { ...(nodeClass.value.spec as PlainObject), kubelet: agreed },
      };
      if (nodeClass.status === 'kept') nodeClass.status = 'updated';
    }
  }
}

/** One node class and what the pools sharing it want of its kubelet. */
interface ClassPlace {
  className: string;
  /** Undefined when the class is not in the repository. */
  nodeClass?: KarpenterOutput;
  /** Its kubelet settings now. */
  current?: PlainObject;
  /** Each pool of the class, with the settings it brings (else the class's). */
  wanted: { pool: KarpenterOutput; kubelet?: PlainObject }[];
  agree: boolean;
  /** The settings every pool agrees on, when they agree on some. */
  agreed?: PlainObject;
}

function classPlace(
  className: string,
  outputs: KarpenterOutput[],
  pools: KarpenterOutput[],
  moving: PoolKubelet[],
): ClassPlace {
  const nodeClass = outputs.find(
    o =>
      o.role === 'nodeClass' &&
      o.status !== 'not-converted' &&
      nodeClassName(o.value) === className,
  );
  const current = (nodeClass?.value.spec as PlainObject | undefined)
    ?.kubelet as PlainObject | undefined;
  const wanted = pools
    .filter(p => refName(p.value) === className)
    .map(p => ({
      pool: p,
      kubelet: moving.find(k => k.key === p.key)?.kubelet ?? current,
    }));
  const first = wanted[0].kubelet;
  const agree = wanted.every(w => deepEqual(w.kubelet ?? null, first ?? null));
  return {
    className,
    nodeClass,
    current,
    wanted,
    agree,
    agreed: agree ? first : undefined,
  };
}

/** What became of a pool's kubelet settings: moved to its class, or why not. */
function kubeletFinding(
  pool: KarpenterOutput,
  move: PoolKubelet,
  kubelet: PlainObject | undefined,
  { className, nodeClass, wanted, agree }: ClassPlace,
): ImportFinding {
  const object = objectLabel(pool.value);
  const notMoved = (message: string): ImportFinding => ({
    kind: 'no-v1-equivalent',
    object,
    field: move.field,
    value: kubelet,
    message,
  });
  if (nodeClass && !takesKubelet(nodeClass.value)) {
    return notMoved(
      `v1 keeps kubelet settings on the node class, and ${objectLabel(nodeClass.value)} (${String(nodeClass.value.apiVersion)}) has its own kubelet fields, which the import does not map: set them on it by hand`,
    );
  }
  if (!nodeClass) {
    return notMoved(
      `v1 keeps kubelet settings on the EC2NodeClass, and "${className}" is not in this repository: set its spec.kubelet to these settings`,
    );
  }
  if (!agree) {
    const wants = wanted
      .map(w => `${objectLabel(w.pool.value)}: ${describe(w.kubelet)}`)
      .join('; ');
    return notMoved(
      `v1 keeps kubelet settings on the EC2NodeClass, and "${className}" is shared by pools that want different ones (${wants}): give each distinct setting its own EC2NodeClass (Karpenter's v1 guide, "Kubelet Configuration Migration")`,
    );
  }
  return {
    kind: 'moved',
    object,
    field: move.field,
    message: `moved to EC2NodeClass "${className}" spec.kubelet, where v1 keeps it`,
  };
}
