/**
 * The `gpu:` keys both backends read (gpu-node `readGpuConfig`): the
 * scaffolder module's actions and the gpu backend's allocation index, review
 * and updater see one repository, one set of cluster profiles, one catalog
 * and one policy. Backstage merges the schemas of every package that names one
 * in `configSchema` (package.json), so each backend's own config.d.ts
 * declares only the keys that backend adds.
 */
export interface Config {
  gpu?: {
    /** The GitOps repository the GPU pull requests target. */
    gitops?: {
      /**
       * Repository URL: an https URL of a GitHub / GitLab / Gitea repository,
       * or a local path / file:// URL of a bare repository (local forge).
       * Credentials never go here: they come from `integrations`.
       */
      repoUrl: string;
      /** Branch pull requests target. Default `main`. */
      baseBranch?: string;
      /**
       * Where the pull request lives. Default `local` (the pushed branch is the
       * PR). Also picks the git user paired with an integration token, for
       * the scaffolder actions and for the gpu backend.
       */
      forge?: 'local' | 'github' | 'gitlab' | 'gitea';
      /**
       * Who commits the scaffolder actions' changes and merges local pull
       * requests on the review page; default `Backstage GPU <gpu-bot@backstage.local>`.
       */
      author?: {
        name?: string;
        email?: string;
      };
      /**
       * Root of the cached clones of the GitOps repository. Default: the OS
       * temp folder's `gpu-gitops`. Each user has its own sub-folder
       * (`publish`, `index`, `review`, `pull-requests`), so a fetch never
       * races a publish.
       */
      cacheDir?: string;
      /**
       * Seconds each git command (clone, fetch, push) and each forge API
       * request may take before the run fails with a timeout: a remote that
       * accepts the connection and never answers must not hold the run and
       * its clone lock. Default 60, at most 3600.
       */
      timeoutSeconds?: number;
      /**
       * Whether the gpu backend re-renders the open GPU pull requests on their
       * base whenever it moves (default true), so they stay mergeable and
       * right: a merged repository is always consistent.
       */
      updatePullRequests?: boolean;
    };

    /** Cluster profiles keyed by cluster name, and the default cluster. */
    clusters?: {
      /** Cluster used when a request names none. */
      default?: string;
      /** Profiles keyed by cluster name (DNS-1123 label); unset fields take built-in defaults. */
      profiles?: {
        [name: string]: {
          provider?:
            | 'aws-karpenter'
            | 'eks-auto-mode'
            | 'azure-karpenter'
            | 'static'
            | 'cluster-api'
            | 'gke';
          /** The provider's region, e.g. `eu-west-1`; the request form shows it beside the name. */
          region?: string;
          /** Karpenter version, e.g. `1.14.1`. */
          karpenterVersion?: string;
          /** The cluster's Kubernetes version, e.g. `1.36.2`: DRA needs 1.34, DRA GPU sharing 1.36. */
          kubernetesVersion?: string;
          /** Dynamic Resource Allocation with the NVIDIA DRA driver. */
          dra?: {
            /**
             * Karpenter (1.15 or later) runs with the AWS feature gate DRANVIDIAGPU
             * (Helm `settings.awsFeatureGates.draNVIDIAGPU: true`): DRA pools autoscale.
             */
            karpenterNvidiaGate?: boolean;
            /** The DRA driver's integer `consumableShares`: claims per GPU (2–48; Kubernetes 1.36 or later). */
            consumableShares?: number;
            /**
             * The driver serves the MIG instances mig-parted cuts (static MIG): a dra request that
             * fits a MIG profile claims one instance of DeviceClass `mig.nvidia.com` (static pool).
             * Not with `consumableShares`.
             */
            staticMig?: boolean;
          };
          nodeClass?: { group?: string; kind?: string; name?: string };
          /** Also generate the EC2NodeClass named in `nodeClass`. */
          generateNodeClass?: boolean;
          devicePluginConfigMap?: { name?: string; namespace?: string };
          migPartedConfigMap?: { name?: string; namespace?: string };
          migStrategy?: 'single' | 'mixed';
          /**
           * Karpenter runs with its NodeOverlay feature gate: NodeOverlays are written for shared and MIG
           * pools. Without it, time-slicing, MPS and mixed-strategy MIG are refused on Karpenter clusters.
           */
          nodeOverlay?: boolean;
          /**
           * Kueue v0.19 (`kueue.x-k8s.io/v1beta2`) admits the cluster's GPU workloads: each change also
           * writes a ResourceFlavor per GPU pool, a ClusterQueue per team (quota from `gpu.policy`), a
           * LocalQueue per namespace, and labels the workload `kueue.x-k8s.io/queue-name`.
           */
          kueue?: boolean;
          /**
           * With `kueue`: the Kueue release the bootstrap installs, as its Helm chart names it
           * (e.g. `0.19.2`, the default; v0.19 or later).
           */
          kueueVersion?: string;
          /**
           * The bootstrap runs the bin-packing scheduler `gpu-binpack` (a second kube-scheduler at
           * `kubernetesVersion`, which must then name its patch, e.g. `1.36.2`) and the GPU workloads
           * the product renders set `schedulerName: gpu-binpack`; a release restores the workload's own.
           */
          binPacking?: boolean;
          gpuTaintKey?: string;
          labelDomain?: string;
          consolidateAfter?: string;
          /**
           * Namespaces no GPU request may target (default: kube-system,
           * kube-public, kube-node-lease, karpenter, gpu-operator; the
           * namespaces of the two config ConfigMaps are always added).
           */
          systemNamespaces?: string[];
          /**
           * Provider `cluster-api` only (required there): the Cluster API
           * cluster its GPU pools (MachineDeployment + the infrastructure's
           * machine template + KubeadmConfigTemplate) belong to.
           */
          clusterApi?: {
            /** The Cluster object's name (`spec.clusterName`). */
            clusterName: string;
            /** Namespace of the Cluster object, where the pools' objects go. */
            namespace: string;
            /**
             * `openstack` (CAPO), `vsphere` (CAPV), `metal3` (CAPM3), `azure`
             * (CAPZ) or `aws` (CAPA); the settings object of the same name
             * (openStack, vSphere, metal3, azure, aws) is required and the
             * others are refused.
             */
            infrastructure:
              'openstack' | 'vsphere' | 'metal3' | 'azure' | 'aws';
            /** Kubernetes version of the GPU nodes, e.g. `v1.33.1`. */
            kubernetesVersion: string;
            /**
             * The Cluster API cluster autoscaler scales the pools (min 0, max the
             * ledger's nodes, scale-from-zero capacity annotations); time-slicing,
             * MPS, mixed-strategy MIG and DRA are then refused. false: replicas
             * are the planned node count.
             */
            autoscaler: boolean;
            /** Further kubelet flags of the GPU nodes (not `node-labels`), e.g. `provider-id`. */
            kubeletExtraArgs?: { [name: string]: string };
            /** Infrastructure `openstack`: OpenStackMachineTemplate defaults; the flavor comes from the plan. */
            openStack?: {
              /** Glance image name (`image.filter.name`). */
              imageName: string;
              imageTags?: string[];
              sshKeyName?: string;
              /** Network of the node's port (else the cluster's). */
              networkName?: string;
              /** Subnet of that port; needs networkName. */
              subnetName?: string;
              securityGroupNames?: string[];
            };
            /**
             * Infrastructure `vsphere`: VSphereMachineTemplate defaults; the
             * VM's CPUs, memory, disk and GPUs come from the catalog machine
             * the plan picks.
             */
            vSphere?: {
              /** The VM template the nodes are cloned from. */
              template: string;
              /** vCenter's address; else the VSphereCluster's. */
              server?: string;
              /** SHA-1 thumbprint of vCenter's certificate; else the VSphereCluster's. */
              thumbprint?: string;
              datacenter?: string;
              datastore?: string;
              folder?: string;
              resourcePool?: string;
              storagePolicyName?: string;
              /** Default `fullClone`: a linked clone ignores the machine's disk size. */
              cloneMode?: 'fullClone' | 'linkedClone';
              /** At least one device; each gets addresses by DHCP or from IP pools. */
              network: {
                devices: Array<{
                  networkName: string;
                  dhcp4?: boolean;
                  dhcp6?: boolean;
                  addressesFromPools?: Array<{
                    apiGroup: string;
                    kind: string;
                    name: string;
                  }>;
                }>;
              };
              /** Advanced VMX settings, e.g. `pciPassthru.use64bitMMIO`. */
              customVMXKeys?: { [key: string]: string };
              /** VM hardware version, e.g. `vmx-17`. */
              hardwareVersion?: string;
            };
            /**
             * Infrastructure `metal3`: Metal3MachineTemplate defaults; the
             * host class comes from the plan.
             */
            metal3?: {
              /** The BareMetalHost label whose value is a host's class (a catalog `metal3` machine). */
              hostClassLabel: string;
              /** The image Ironic provisions the hosts with. */
              image: {
                url: string;
                /** The image's sum, or a URL of one. */
                checksum: string;
                checksumType?: 'md5' | 'sha256' | 'sha512';
                diskFormat?: 'raw' | 'qcow2' | 'vdi' | 'vmdk' | 'live-iso';
              };
              /** Metal3DataTemplate of the hosts' metadata and network data. */
              dataTemplateName?: string;
              automatedCleaningMode?: 'metadata' | 'disabled';
            };
            /**
             * Infrastructure `azure`: AzureMachineTemplate defaults; the VM
             * size comes from the plan (a catalog `azure` size).
             */
            azure?: {
              /** OS disk size in GB; default 128. */
              osDiskSizeGB?: number;
              /** OS disk type; default `Premium_LRS`. */
              osDiskStorageAccountType?: string;
              /** Base64 OpenSSH public key of the nodes. */
              sshPublicKey?: string;
            };
            /**
             * Infrastructure `aws`: AWSMachineTemplate defaults; the instance
             * type comes from the plan (a catalog `aws` type).
             */
            aws?: {
              /** IAM instance profile of the nodes, e.g. `nodes.cluster-api-provider-aws.sigs.k8s.io`. */
              iamInstanceProfile: string;
              sshKeyName?: string;
              /** Root volume size in GiB; default 100. */
              rootVolumeGiB?: number;
              /** Root volume type; default `gp2`. */
              rootVolumeType?:
                'standard' | 'io1' | 'io2' | 'gp2' | 'gp3' | 'sc1' | 'st1';
            };
          };
          /**
           * Provider `static` only: the GPU nodes that exist (each pool is then
           * an NFD NodeFeatureRule that labels and taints its nodes; the
           * bootstrap sets nfd-master -enable-taints). Absent: nothing is
           * written for a static pool and no inventory limits it. The GPU taint
           * key must be prefixed and outside kubernetes.io (NFD drops others).
           */
          staticNodes?: {
            /**
             * `name`: a pool gets inventory nodes by name (NFD `system.name`
             * `nodename`); `gpu`: every node with its GPU model (NFD `pci.device`,
             * vendor 10de and the model's device ids), one pool per model.
             */
            select: 'name' | 'gpu';
            /** Every GPU node: its Node name and the catalog `static` machine it is. */
            inventory: Array<{ name: string; machine: string }>;
          };
        };
      };
    };

    /**
     * Organisation overrides of the built-in GPU catalog (validated at start-up
     * with gpu-common `catalogOverrideSchema`; merged with `mergeCatalog`).
     */
    catalog?: {
      /** GPU models added, or replacing the built-in model with the same id. */
      models?: Array<{
        /** Catalog id, e.g. `a100-80gb` (DNS-1123 label). */
        id: string;
        displayName: string;
        /** Usable memory per GPU, MiB. */
        memoryMiB: number;
        architecture:
          | 'volta'
          | 'turing'
          | 'ampere'
          | 'ada-lovelace'
          | 'hopper'
          | 'blackwell';
        /** e.g. `8.0`. */
        computeCapability: string;
        mpsMaxReplicas?: number;
        mig?: {
          memorySlices: number;
          computeSlices: number;
          /** e.g. `0x20B010DE`. */
          pciDeviceIds: string[];
          profiles: Array<{
            /** e.g. `1g.10gb`. */
            name: string;
            memoryMiB: number;
            computeSlices: number;
            memorySlices: number;
            startSlots: number[];
            maxCount: number;
          }>;
        };
      }>;
      /** Machine shapes added or replaced by name (EC2 types, Azure sizes, on-prem machines, Cluster API machines). */
      instanceTypes?: Array<{
        name: string;
        family: string;
        /**
         * `static`: existing nodes; a `cluster-api` cluster's, by its
         * infrastructure: `openstack` flavors, `vsphere` VM shapes,
         * `metal3` bare-metal host classes (the name is the host class
         * label's value); `gcp`: Compute Engine machine types of a `gke`
         * cluster.
         */
        provider:
          | 'aws'
          | 'azure'
          | 'static'
          | 'openstack'
          | 'vsphere'
          | 'metal3'
          | 'gcp';
        gpuModel: string;
        gpusPerNode: number;
        gpuMemoryMiB?: number;
        vcpu: number;
        memoryMiB: number;
        onDemandUsdPerHour: number;
        karpenterGpuName?: string;
        /**
         * Provider `vsphere` only (required there): the VM's disk, and its
         * GPUs by PCI passthrough (`pciDeviceId`, 4 hex digits, quoted; the
         * model's one known id when left out) or as vGPUs (`vgpuProfile`).
         */
        vSphere?: {
          diskGiB: number;
          pciDeviceId?: string;
          vgpuProfile?: string;
        };
      }>;
      /** Price overrides: instance type name -> USD per hour. */
      prices?: { [instanceType: string]: number };
      /** Only these model ids may be planned at all. */
      allowedModels?: string[];
    };

    /** Guardrails checked before anything is written or pushed. */
    policy?: {
      /** Rules for owners that no group rule names. */
      defaults?: {
        allowedModels?: string[];
        allowedSharingModes?: Array<
          'exclusive' | 'time-slicing' | 'mps' | 'mig' | 'dra'
        >;
        /**
         * GPUs an owner may hold on each cluster, in physical-GPU equivalents
         * (0.25 = a quarter of one GPU).
         */
        gpuQuota?: number;
        /**
         * On clusters with `kueue: true`: the owner's ClusterQueue joins the
         * cluster's cohort `gpu-<cluster>`; these limit, per GPU pool and in
         * physical-GPU equivalents, the idle quota of the other teams it may
         * borrow and the part of its own idle quota it lends (each pool's
         * flavor gets them in the pool's units). Absent: no limit.
         */
        kueue?: {
          borrowingLimit?: number;
          lendingLimit?: number;
        };
      };
      /** Rules per owner group. */
      groups?: Array<{
        /** Owner entity ref, e.g. `group:default/ml-platform`. */
        owner: string;
        allowedModels?: string[];
        allowedSharingModes?: Array<
          'exclusive' | 'time-slicing' | 'mps' | 'mig' | 'dra'
        >;
        gpuQuota?: number;
        /** As in `defaults`; replaces the defaults' `kueue` whole. */
        kueue?: {
          borrowingLimit?: number;
          lendingLimit?: number;
        };
      }>;
    };
  };
}
