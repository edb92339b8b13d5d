/**
 * The `clusterApi.openStack` profile key: the OpenStack machine of a Cluster
 * API cluster's GPU pools (CAPO).
 */
import { z } from 'zod';
import { nonEmpty } from './profileFields';

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

export const openStackSettingsSchema = z
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
