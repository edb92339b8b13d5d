/**
 * What the gpu backend tells the request form beside the plan preview (the
 * HTTP contract of `GET /clusters`, `GET /quota` and the refusals of
 * `POST /plan`), isomorphic.
 */
import type { ClusterCapabilities } from '../cluster/capabilities';
import type { InputIssue } from '../errors';

/**
 *  An owner's GPU quota on one cluster, in physical-GPU equivalents.
 *
 * @public
 */
export interface QuotaUse {
  /** Normalised owner ref, e.g. `group:default/ml-platform`. */
  owner: string;
  cluster: string;
  /** What the owner's workloads on the cluster hold (the request's own workload left out). */
  used: number;
  /** What the request needs (0 when no request was planned). */
  requested: number;
  /** The owner's quota; undefined when the policy sets none. */
  quota?: number;
}

/**
 *  `GET /clusters[?owner=]`: the configured cluster profiles and what each can run.
 *
 * @public
 */
export interface ClustersResponse {
  defaultCluster: string;
  clusters: ClusterCapabilities[];
}

/**
 *  One refusal of `POST /plan`: the machine-readable path and rule, and the form's words.
 *
 * @public
 */
export interface PlanIssue extends InputIssue {
  /** The form's label of the field, e.g. `GPU memory per replica` (absent for the whole request). */
  field?: string;
}

/**
 *  The 400 body of `POST /plan` for a request that is invalid, does not fit or is not allowed.
 *
 * @public
 */
export interface PlanRefusalResponse {
  error: { name: 'InputError'; message: string };
  issues: PlanIssue[];
  /** The owner's quota use, once the request was planned. */
  quota?: QuotaUse;
}
