/**
 * The profile part of a static cluster (`provider: static`): the GPU nodes
 * that exist already (nothing provisions them) and how a pool chooses its
 * nodes. With it, a pool is an NFD NodeFeatureRule that labels and taints
 * the pool's nodes; without it, nothing is written for a pool and its nodes'
 * labels and taint are the platform's to set (the behaviour before).
 */
import { z } from 'zod';
import { isDns1123Subdomain } from '../request/formats';

/**
 * How a static pool chooses its nodes: `name`, the inventory nodes the
 * planner assigns it (NFD `system.name` `nodename`); `gpu`, every node with
 * the pool's GPU model (NFD `pci.device`, NVIDIA vendor and the model's PCI
 * device ids), so one pool per GPU model.
 *
 * @public
 */
export type StaticNodeSelection = 'name' | 'gpu';

/**
 * One node of a static cluster's inventory.
 *
 * @public
 */
export interface StaticNode {
  /** The Node object's name (NFD's `system.name` `nodename`). */
  name: string;
  /** The catalog's `static` machine the node is (its GPUs, vCPUs, memory, price). */
  machine: string;
}

/**
 * Static cluster settings of a cluster profile.
 *
 * @public
 */
export interface StaticNodesSettings {
  /** How pools choose nodes: by node name, or by GPU model (PCI device ids). */
  select: StaticNodeSelection;
  /** Every GPU node of the cluster: the most any pool, or all of them, can get. */
  inventory: StaticNode[];
}

/**
 * The `staticNodes` profile key: strict, every field named in its errors.
 *
 * @public
 */
export const staticNodesSchema = z.strictObject({
  select: z.enum(['name', 'gpu'], {
    message:
      'must be "name" (a pool gets inventory nodes by name) or "gpu" (a pool gets every node with its GPU model)',
  }),
  inventory: z
    .array(
      z.strictObject({
        // A Node's name is a DNS-1123 subdomain.
        name: z.string().refine(isDns1123Subdomain, {
          message: 'must be a Kubernetes node name (a DNS-1123 subdomain)',
          params: { rule: 'node-name' },
        }),
        machine: z.string().min(1, { message: 'must not be empty' }),
      }),
    )
    .min(1, {
      message:
        'must list at least one node: a static pool can only get nodes the inventory declares',
    })
    .max(5000)
    .superRefine((nodes, ctx) => {
      const seen = new Set<string>();
      nodes.forEach((node, i) => {
        if (seen.has(node.name)) {
          ctx.addIssue({
            code: 'custom',
            path: [i, 'name'],
            message: `node "${node.name}" is listed twice: a node is one machine`,
            params: { rule: 'duplicate-node' },
          });
        }
        seen.add(node.name);
      });
    }),
});

/**
 * Why NFD would drop `key` as a taint key (nfd-master v0.19.0
 * `pkg/apis/nfd/validate/validate.go` `Taint`: a prefix is required, and
 * `kubernetes.io` and its sub-domains are denied); undefined when it applies.
 */
export function nfdTaintKeyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash < 0 ? '' : key.slice(0, slash);
  if (prefix === '') {
    return 'NFD applies only prefixed taint keys (e.g. "nvidia.com/gpu")';
  }
  if (prefix === 'kubernetes.io' || prefix.endsWith('.kubernetes.io')) {
    return `NFD never applies a taint in the ${prefix} domain (kubernetes.io and its sub-domains are denied)`;
  }
  return undefined;
}
