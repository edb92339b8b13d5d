/**
 * The profile part of a Cluster API cluster (`provider: cluster-api`): what
 * its GPU pools' MachineDeployments and machine templates need that the
 * planner does not decide. Only OpenStack (CAPO) infrastructure is built;
 * vSphere (CAPV) and Metal3 need their own machine template builders.
 */
import { z } from 'zod';
import { isDns1123Label } from '../request/formats';

/**
 * OpenStack machine defaults of the GPU pools (CAPO v0.14.7
 * `OpenStackMachineTemplate` v1beta1 `spec.template.spec`; the flavor comes
 * from the plan).
 *
 * @public
 */
export interface ClusterApiOpenStackSettings {
  /** Glance image the nodes boot (`image.filter.name`); the one field CAPO requires besides the flavor. */
  imageName: string;
  /** Image tags narrowing the filter (`image.filter.tags`). */
  imageTags?: string[];
  /** Nova keypair injected into the nodes (`sshKeyName`). */
  sshKeyName?: string;
  /** Neutron network of the node's port (`ports[0].network.filter.name`); else the cluster's network. */
  networkName?: string;
  /** Subnet of that port (`ports[0].fixedIPs[0].subnet.filter.name`); needs `networkName`. */
  subnetName?: string;
  /** Security groups by name (`securityGroups[].filter.name`); else the cluster's managed ones. */
  securityGroupNames?: string[];
}

/**
 * Cluster API settings of a cluster profile.
 *
 * @public
 */
export interface ClusterApiSettings {
  /** The Cluster object's name (`spec.clusterName` of every MachineDeployment). */
  clusterName: string;
  /** Namespace of the Cluster object, where its MachineDeployments and templates live. */
  namespace: string;
  /** The infrastructure provider; only `openstack` (CAPO) is built. */
  infrastructure: 'openstack';
  /** Kubernetes version of the nodes (`spec.template.spec.version`), e.g. `v1.33.1`. */
  kubernetesVersion: string;
  /**
   * The Cluster API cluster autoscaler manages the GPU MachineDeployments:
   * pools carry its min/max size and scale-from-zero capacity annotations
   * instead of `spec.replicas`. Off: replicas are the planned node count.
   */
  autoscaler: boolean;
  /** Further kubelet flags of the GPU nodes (e.g. CAPO's `provider-id`), beside `node-labels`. */
  kubeletExtraArgs?: Record<string, string>;
  /** The OpenStack machine of the GPU nodes, besides the flavor the plan picks. */
  openStack: ClusterApiOpenStackSettings;
}

const dns1123Label = z.string().refine(isDns1123Label, {
  message: 'must be a DNS-1123 label (lowercase letters, digits, "-", <= 63)',
  params: { rule: 'dns1123-label' },
});

const nonEmpty = z.string().min(1, { message: 'must not be empty' });

const openStackSchema = z
  .strictObject({
    imageName: nonEmpty,
    imageTags: z.array(nonEmpty).max(20).optional(),
    sshKeyName: nonEmpty.optional(),
    networkName: nonEmpty.optional(),
    subnetName: nonEmpty.optional(),
    securityGroupNames: z.array(nonEmpty).max(20).optional(),
  })
  .refine(o => o.subnetName === undefined || o.networkName !== undefined, {
    message: 'subnetName needs networkName: the port is created on a network',
    path: ['subnetName'],
    params: { rule: 'subnet-needs-network' },
  });

/**
 * The `clusterApi` profile key: strict, every field named in its errors.
 *
 * @public
 */
export const clusterApiSchema = z.strictObject({
  // spec.clusterName is at most 63 characters (CAPI v1.14.0 MachineDeployment CRD).
  clusterName: dns1123Label,
  namespace: dns1123Label,
  infrastructure: z.enum(['openstack'], {
    message:
      'must be "openstack": only Cluster API Provider OpenStack machine templates are built (vSphere and Metal3 are not yet)',
  }),
  kubernetesVersion: z.string().regex(/^v\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/, {
    message: 'must be a Kubernetes version such as "v1.33.1"',
  }),
  autoscaler: z.boolean(),
  kubeletExtraArgs: z
    .record(
      z.string().regex(/^[a-z0-9][a-z0-9-]*$/, {
        message:
          'must be a kubelet flag name without dashes, e.g. "provider-id"',
      }),
      z.string().max(1024),
    )
    .refine(args => !('node-labels' in args), {
      message:
        'must not set node-labels: the product writes the pool labels there',
      params: { rule: 'node-labels-reserved' },
    })
    .optional(),
  openStack: openStackSchema,
});
