/**
 * Repositories shaped like public ones the product has never seen, for the
 * validate rules that must hold on them (issue 23).
 */

/**
 * An EKS cluster folder after the Karpenter v1 migration, from
 * aws-ia/terraform-aws-eks-blueprints `patterns/karpenter-mng/karpenter.yaml`
 * (commit 7125f2c0: EC2NodeClass `default`, NodePool `default` with the
 * integer limit `cpu: 1000`) as `gpu-gitops import` converts it to v1, plus
 * a GPU NodePool written the same way (`nvidia.com/gpu: 8`) and an app that
 * fills it: 2 replicas of 4 GPUs on 4-GPU g5.12xlarge nodes.
 */
export function eksBlueprintsRepoFiles(): Record<string, string> {
  return {
    'clusters/prod/kustomization.yaml': `resources:
  - karpenter.yaml
  - gpu.yaml
`,
    'clusters/prod/karpenter.yaml': `---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiSelectorTerms:
    - alias: al2023@latest
  role: ex-karpenter-mng
  subnetSelectorTerms:
    - tags:
        karpenter.sh/discovery: ex-karpenter-mng
  securityGroupSelectorTerms:
    - tags:
        karpenter.sh/discovery: ex-karpenter-mng
  tags:
    karpenter.sh/discovery: ex-karpenter-mng
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: "karpenter.k8s.aws/instance-category"
          operator: In
          values: ["c", "m", "r"]
        - key: "karpenter.k8s.aws/instance-cpu"
          operator: In
          values: ["4", "8", "16", "32"]
        - key: "karpenter.k8s.aws/instance-hypervisor"
          operator: In
          values: ["nitro"]
        - key: "karpenter.k8s.aws/instance-generation"
          operator: Gt
          values: ["2"]
  limits:
    cpu: 1000
  disruption:
    consolidationPolicy: WhenEmpty
    consolidateAfter: 30s
`,
    'clusters/prod/gpu.yaml': `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["g5.12xlarge"]
        - key: karpenter.sh/capacity-type
          operator: In
          values: ["on-demand"]
      taints:
        - key: nvidia.com/gpu
          value: "true"
          effect: NoSchedule
  limits:
    cpu: 1000
    nvidia.com/gpu: 8
  disruption:
    consolidationPolicy: WhenEmpty
    consolidateAfter: 30s
`,
    'apps/ml/llm/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
    'apps/ml/llm/deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: llm
  namespace: ml
spec:
  replicas: 2
  selector:
    matchLabels: { app: llm }
  template:
    metadata:
      labels: { app: llm }
    spec:
      nodeSelector:
        karpenter.sh/nodepool: gpu
      tolerations:
        - key: nvidia.com/gpu
          operator: Exists
          effect: NoSchedule
      containers:
        - name: server
          image: vllm/vllm-openai:v0.6.3
          resources:
            limits:
              nvidia.com/gpu: 4
`,
  };
}

/**
 * A Helm chart folder inside the repository, from
 * aws-ia/terraform-aws-eks-blueprints `patterns/bottlerocket/karpenter-resources/`
 * (Chart.yaml at ba2e3c9e, templates at f234afb9 with some requirements left
 * out, values.yaml at 1dac347e):
 * its templates are Go templates, not YAML, until Helm renders them.
 */
export function karpenterResourcesChartFiles(
  folder: string,
): Record<string, string> {
  return {
    [`${folder}/Chart.yaml`]: `apiVersion: v2
name: karpenter-resources
description: Helm chart to deploy Karpenter resources
version: 0.0.1
`,
    [`${folder}/values.yaml`]: `nodepool:
  zone: []
ec2nodeclass:
  role: ""
  securityGroupSelectorTerms:
    tags:
       karpenter.sh/discovery: ""
  subnetSelectorTerms:
    tags:
       karpenter.sh/discovery: ""
  blockDeviceMappings:
    ebs:
      kmsKeyID: ""
  tags:
    karpenter.sh/discovery: ""
`,
    [`${folder}/templates/nodepool.yaml`]: `apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: default
spec:
  disruption:
    consolidationPolicy: WhenUnderutilized
    expireAfter: 24h0m0s
  limits:
    cpu: 1k
  template:
    metadata:
      labels:
        bottlerocket.aws/updater-interface-version: 2.0.0
    spec:
      kubelet:
        maxPods: 110
      nodeClassRef:
        name: default
      requirements:
      - key: karpenter.k8s.aws/instance-category
        operator: In
        values:
        - c
        - m
      - key: topology.kubernetes.io/zone
        operator: In
        values: {{- toYaml .Values.nodepool.zone | nindent 8 }}
      - key: kubernetes.io/arch
        operator: In
        values:
        - amd64
`,
    [`${folder}/templates/ec2nodeclass.yaml`]: `apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiFamily: Bottlerocket
  role: \${split("/", module.eks_blueprints_addons.karpenter.node_iam_role_arn)[1]}
  securityGroupSelectorTerms:
  - tags:
      karpenter.sh/discovery: \${module.eks.cluster_name}
  subnetSelectorTerms:
  - tags:
      karpenter.sh/discovery: \${module.eks.cluster_name}
`,
  };
}

/**
 * An AKS cluster with Karpenter (node auto-provisioning): the pool and node
 * class of Azure/karpenter-provider-azure `examples/v1/general-purpose.yaml`
 * (v1.14.2, last change 7118a93c), byte for byte, and a GPU pool on the
 * same class (NC-family, 1 GPU per node).
 */
export function aksKarpenterRepoFiles(): Record<string, string> {
  return {
    'clusters/aks/kustomization.yaml': `resources:
  - general-purpose.yaml
  - gpu.yaml
`,
    'clusters/aks/general-purpose.yaml': `# This example NodePool will provision general purpose instances
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general-purpose
  annotations:
    kubernetes.io/description: "General purpose NodePool"
spec:
  disruption:
    consolidateAfter: 0s
    budgets:
    - nodes: 30%
  # Optional: Uncomment if you want to put a cap on the max resources available for provisioning
  # limits:
  #   cpu: "30"
  template:
    metadata:
      labels:
        # required for Karpenter to predict overhead from cilium DaemonSet
        kubernetes.azure.com/ebpf-dataplane: cilium
    spec:
      nodeClassRef:
        group: karpenter.azure.com
        kind: AKSNodeClass
        name: default
      startupTaints:
      # https://karpenter.sh/docs/concepts/nodepools/#cilium-startup-taint
      - key: node.cilium.io/agent-not-ready
        effect: NoExecute
        value: "true"
      expireAfter: Never
      requirements:
      - key: kubernetes.io/arch
        operator: In
        values: ["amd64"]
      - key: kubernetes.io/os
        operator: In
        values: ["linux"]
      - key: karpenter.sh/capacity-type
        operator: In
        values: ["on-demand"]
      - key: karpenter.azure.com/sku-family
        operator: In
        values: [D]
      # Optional: Uncomment if you want to keep Azure placement zonal.
      #           Use "regional" instead to request non-zonal capacity, labeled with topology.kubernetes.io/zone=0.
      # - key: karpenter.azure.com/placement-scope
      #   operator: In
      #   values: ["zonal"]
      # Optional: Uncomment if you want to add a restriction on max sku cpus.
      #           Useful for ensuring karpneter provisions multiple nodes for feature testing.
      # - key: karpenter.azure.com/sku-cpu
      #   operator: Lt
      #   values: ["3"]
---
apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata:
  name: default
  annotations:
    kubernetes.io/description: "General purpose AKSNodeClass for running Ubuntu nodes"
spec:
  imageFamily: Ubuntu
`,
    'clusters/aks/gpu.yaml': `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.azure.com
        kind: AKSNodeClass
        name: default
      requirements:
        - key: karpenter.azure.com/sku-family
          operator: In
          values: [NC]
        - key: karpenter.azure.com/sku-gpu-count
          operator: In
          values: ["1"]
      taints:
        - key: sku
          value: gpu
          effect: NoSchedule
  limits:
    nvidia.com/gpu: 4
`,
  };
}

/**
 * The device-plugin ConfigMap of the NVIDIA GPU Operator docs ("Time-Slicing
 * GPUs in Kubernetes", `time-slicing-config-fine`: one key per GPU model),
 * written by hand in the cluster's folder, and a T4 pool whose nodes select
 * its `tesla-t4` key; its name is not the product's default, and no
 * `--cluster` says which ConfigMap the operator reads.
 */
export function handWrittenTimeSlicingFiles(): Record<string, string> {
  return {
    'clusters/prod/time-slicing-config.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: time-slicing-config-fine
  namespace: gpu-operator
data:
  a100-40gb: |-
    version: v1
    flags:
      migStrategy: mixed
    sharing:
      timeSlicing:
        resources:
        - name: nvidia.com/gpu
          replicas: 8
        - name: nvidia.com/mig-1g.5gb
          replicas: 2
        - name: nvidia.com/mig-2g.10gb
          replicas: 2
        - name: nvidia.com/mig-3g.20gb
          replicas: 3
        - name: nvidia.com/mig-7g.40gb
          replicas: 7
  tesla-t4: |-
    version: v1
    flags:
      migStrategy: none
    sharing:
      timeSlicing:
        resources:
        - name: nvidia.com/gpu
          replicas: 4
`,
    'clusters/prod/gpu-t4.yaml': `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-t4
spec:
  template:
    metadata:
      labels:
        nvidia.com/device-plugin.config: tesla-t4
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["g4dn.xlarge"]
  limits:
    nvidia.com/gpu: 2
`,
  };
}

/**
 * A Cluster API cluster on OpenStack: the worker MachineDeployment
 * `<cluster>-md-0` and its templates of kubernetes-sigs/cluster-api-provider-openstack
 * `templates/cluster-template.yaml` (v0.14), rendered by clusterctl for
 * `ml-prod` with a site's 4-GPU flavor `g1.a100x4`, the pool annotations
 * `gpu-gitops import` adds and the pool label the team gives its nodes; a
 * server of 2 replicas × 4 GPUs pinned to it. The flavor is no catalog's.
 *
 * @public
 */
export function capoRepoFiles(): Record<string, string> {
  return {
    'clusters/ml-prod/kustomization.yaml': 'resources:\n  - md-0.yaml\n',
    'clusters/ml-prod/md-0.yaml': `apiVersion: cluster.x-k8s.io/v1beta1
kind: MachineDeployment
metadata:
  name: ml-prod-md-0
  namespace: capi-ml-prod
  annotations:
    gpu.backstage.io/sharing-mode: exclusive
    gpu.backstage.io/requests: ""
spec:
  clusterName: ml-prod
  replicas: 2
  selector:
    matchLabels:
  template:
    spec:
      clusterName: ml-prod
      version: v1.33.1
      failureDomain: nova
      infrastructureRef:
        name: ml-prod-md-0
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
        kind: OpenStackMachineTemplate
      bootstrap:
        configRef:
          name: ml-prod-md-0
          apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
          kind: KubeadmConfigTemplate
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: OpenStackMachineTemplate
metadata:
  name: ml-prod-md-0
  namespace: capi-ml-prod
spec:
  template:
    spec:
      flavor: g1.a100x4
      image:
        filter:
          name: ubuntu-2404-kube-v1.33.1
      sshKeyName: ml-ops
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
kind: KubeadmConfigTemplate
metadata:
  name: ml-prod-md-0
  namespace: capi-ml-prod
spec:
  template:
    spec:
      files: []
      joinConfiguration:
        nodeRegistration:
          name: '{{ local_hostname }}'
          kubeletExtraArgs:
            cloud-provider: external
            provider-id: openstack:///'{{ instance_id }}'
            node-labels: gpu.backstage.io/pool=ml-prod-md-0
`,
    'apps/ml/trainer/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
    'apps/ml/trainer/deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: trainer
  namespace: ml
spec:
  replicas: 2
  selector:
    matchLabels: { app: trainer }
  template:
    metadata:
      labels: { app: trainer }
    spec:
      nodeSelector:
        gpu.backstage.io/pool: ml-prod-md-0
      containers:
        - name: trainer
          image: nvcr.io/nvidia/pytorch:24.08-py3
          resources:
            limits:
              nvidia.com/gpu: 4
`,
  };
}
