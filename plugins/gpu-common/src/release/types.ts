import type { LedgerEntry } from '../capacity/ledger';
import type { GpuRequest } from '../request/types';

/**
 * One pool the released request held capacity in, before and after.
 *
 * @public
 */
export interface ReleasedPool {
  name: string;
  /** Repository path of the file that holds its NodePool. */
  path: string;
  /** True when the NodePool carries the product's `app.kubernetes.io/managed-by` label. */
  managed: boolean;
  resourceName: string;
  /** What the request held: replicas x units per replica of `resourceName`. */
  releasedUnits: number;
  /** The ledger, limits and floor the pool keeps (what `spec.limits` becomes). */
  ledger: LedgerEntry[];
  limits: Record<string, number>;
  limitFloor?: number;
  /** True when no request holds the pool any more and the product manages it: it is removed. */
  removed: boolean;
  nodesBefore: number;
  nodesAfter: number;
  usdPerMonthBefore: number;
  usdPerMonthAfter: number;
  /** What this request was billed in the pool before (its attributed share, as the card shows it). */
  attributedUsdPerMonth: number;
  /** The device-plugin and mig-parted configs its nodes run (label values). */
  deviceConfigName?: string;
  migConfigName?: string;
}

/**
 * What releasing a request changes: its record and workload go, the pools it
 * held shrink, and a managed pool nobody holds any more goes with the
 * configs no other pool selects.
 *
 * @public
 */
export interface ReleasePlan {
  /** The request as the repository stores it. */
  request: GpuRequest;
  cluster: string;
  pools: ReleasedPool[];
  /** Device-plugin config keys only removed pools selected (never `default`). */
  unusedDevicePluginConfigs: string[];
  /** mig-parted entries only removed pools selected (never `all-disabled`). */
  unusedMigConfigs: string[];
  /** What the pools cost less per month: before minus after, summed. */
  savedUsdPerMonth: number;
  /** What the request was billed before, summed over its pools (the card's figure). */
  attributedUsdPerMonth: number;
  /**
   * What it saves and why, in one sentence (`releaseSavingsText`): a pool
   * that keeps its nodes frees units but no money, and says so.
   */
  savings: string;
  /** False when a pool's machine price is unknown (its costs count 0). */
  priceKnown: boolean;
  explanation: string[];
}

/**
 * An object a release leaves in place: the product did not write it (no
 * request annotation), so it is not the release's to delete.
 *
 * @public
 */
export interface ReleaseLeftObject {
  kind: string;
  name: string;
  /** Repository path of its file. */
  path: string;
}
