/**
 * The `clusterApi.vSphere` profile key: where and how CAPV clones the VMs of a
 * Cluster API cluster's GPU pools. The VM's size and GPUs are not here: they
 * come from the catalog's `vsphere` machine the plan picks.
 */
import { z } from 'zod';
import { isDns1123Subdomain } from '../request/formats';
import { nonEmpty } from './profileFields';

/**
 * An IP address pool a network device gets its addresses from (CAPV
 * `addressesFromPools[]`, claimed through the Cluster API IPAM contract).
 *
 * @public
 */
export interface VSphereIpPool {
  /** e.g. `ipam.cluster.x-k8s.io`. */
  apiGroup: string;
  /** e.g. `InClusterIPPool`. */
  kind: string;
  /** The pool object's name, in the Cluster's namespace. */
  name: string;
}

/**
 * One network device of the GPU VMs (CAPV `network.devices[]`). A machine
 * template cannot carry fixed addresses, so each device gets its addresses
 * from DHCP or from IP pools.
 *
 * @public
 */
export interface VSphereNetworkDevice {
  /** The vSphere network (port group) the device is connected to. */
  networkName: string;
  /** IPv4 addresses by DHCP. */
  dhcp4?: boolean;
  /** IPv6 addresses by DHCP. */
  dhcp6?: boolean;
  /** Addresses claimed from these pools by an IPAM provider. */
  addressesFromPools?: VSphereIpPool[];
}

/**
 * CAPV's VM clone modes (`cloneMode`).
 *
 * @public
 */
export type VSphereCloneMode = 'fullClone' | 'linkedClone';

/**
 * vSphere machine defaults of the GPU pools (CAPV v1.16.1
 * `VSphereMachineTemplate` v1beta2 `spec.template.spec`; the VM's CPUs,
 * memory, disk and GPUs come from the catalog machine of the plan).
 *
 * @public
 */
export interface ClusterApiVSphereSettings {
  /** The VM template the nodes are cloned from (`template`), e.g. an image-builder OVA; CAPV requires it. */
  template: string;
  /** vCenter's address (`server`); else the VSphereCluster's (CAPV `pkg/services/vimmachine.go`). */
  server?: string;
  /** SHA-1 thumbprint of vCenter's certificate (`thumbprint`); else the VSphereCluster's. */
  thumbprint?: string;
  /** Datacenter the VMs are created in (`datacenter`); else `*`, vCenter's default datacenter (the CRD's description). */
  datacenter?: string;
  /** Datastore of the VMs' disks (`datastore`); else the VM template's. */
  datastore?: string;
  /** VM folder the VMs are put in (`folder`). */
  folder?: string;
  /** Resource pool the VMs run in (`resourcePool`). */
  resourcePool?: string;
  /** Storage policy of the VMs' disks (`storagePolicyName`). */
  storagePolicyName?: string;
  /**
   * `fullClone` unless set: a linked clone cannot grow its disk, so CAPV
   * ignores `diskGiB` there (the CRD's `cloneMode` description) and the
   * machine's disk would silently be the template's.
   */
  cloneMode?: VSphereCloneMode;
  /** The VMs' network (`network.devices`); CAPV requires at least one device. */
  network: { devices: VSphereNetworkDevice[] };
  /**
   * Advanced VMX settings of the VMs (`customVMXKeys`), e.g. the 64-bit MMIO
   * settings GPUs with large BARs need in PCI passthrough
   * (`pciPassthru.use64bitMMIO`, `pciPassthru.64bitMMIOSizeGB`).
   */
  customVMXKeys?: Record<string, string>;
  /** VM hardware version (`hardwareVersion`), e.g. `vmx-17`: Dynamic DirectPath I/O needs 17 or later (CAPV `docs/gpu-pci.md`). */
  hardwareVersion?: string;
}

/** An inventory path or managed object reference of vCenter (CAPV: 1..2048 characters). */
const inventoryName = nonEmpty.max(2048);

const ipPoolSchema = z.strictObject({
  apiGroup: z.string().refine(isDns1123Subdomain, {
    message: 'must be an API group such as "ipam.cluster.x-k8s.io"',
    params: { rule: 'dns1123-subdomain' },
  }),
  kind: z.string().regex(/^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$/, {
    message: 'must be a kind such as "InClusterIPPool"',
  }),
  name: z.string().refine(isDns1123Subdomain, {
    message: 'must be an object name (a DNS-1123 subdomain)',
    params: { rule: 'dns1123-subdomain' },
  }),
});

const networkDeviceSchema = z
  .strictObject({
    networkName: inventoryName,
    dhcp4: z.boolean().optional(),
    dhcp6: z.boolean().optional(),
    addressesFromPools: z.array(ipPoolSchema).min(1).max(128).optional(),
  })
  // CAPV's template webhook forbids `ipAddrs` (v1.16.1
  // internal/webhooks/vspheremachinetemplate.go), and a device without DHCP
  // needs them (the CRD's `ipAddrs` description): without DHCP or a pool
  // the VM never gets an address and its Machine never becomes ready.
  .refine(d => d.dhcp4 === true || d.dhcp6 === true || d.addressesFromPools, {
    message:
      'needs an address source: dhcp4: true, dhcp6: true or addressesFromPools (a machine template cannot carry fixed addresses)',
    params: { rule: 'network-address-source' },
  });

export const vSphereSettingsSchema = z.strictObject({
  template: inventoryName,
  server: nonEmpty.max(1024).optional(),
  thumbprint: z
    .string()
    .regex(/^([0-9A-Fa-f]{2}:){19}[0-9A-Fa-f]{2}$/, {
      message:
        'must be a SHA-1 thumbprint: 20 colon-separated hex bytes, e.g. "AB:CD:..."',
    })
    .optional(),
  datacenter: inventoryName.optional(),
  datastore: inventoryName.optional(),
  folder: inventoryName.optional(),
  resourcePool: inventoryName.optional(),
  storagePolicyName: nonEmpty.max(1024).optional(),
  cloneMode: z
    .enum(['fullClone', 'linkedClone'], {
      message: 'must be "fullClone" or "linkedClone"',
    })
    .optional(),
  network: z.strictObject({
    devices: z.array(networkDeviceSchema).min(1).max(128),
  }),
  customVMXKeys: z.record(nonEmpty, z.string()).optional(),
  // CAPV v1.16.1 internal/webhooks/vspheremachinetemplate.go.
  hardwareVersion: z
    .string()
    .regex(/^vmx-[1-9][0-9]?$/, {
      message: 'must be a VM hardware version such as "vmx-17"',
    })
    .optional(),
});
