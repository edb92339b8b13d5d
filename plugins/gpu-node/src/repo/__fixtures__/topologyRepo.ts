/**
 * A Cluster API cluster on OpenStack whose workers its ClusterClass owns,
 * after the team added a GPU worker class and its topology entry and the
 * import adopted the entry (its pool annotations on the entry's
 * `metadata.annotations`, which the topology controller puts on the
 * MachineDeployment it makes). Spellings as Cluster API v1.11 v1beta2 and
 * CAPO v1beta2 write them (`test/fixtures/capo-clusterclass-repo`, from
 * CAPO's `templates/clusterclass-dev-test.yaml`); the worker class's
 * bootstrap template registers the nodes with the product's pool label,
 * the one label of the product a topology worker's nodes can carry
 * (`repo/machineDeploymentPools.ts` `syncedToNode`).
 */

/** The Cluster, its GPU entry adopted with a ledger of one request. */
export const topologyClusterYaml = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: ml-os
spec:
  topology:
    classRef:
      name: dev-test
    version: v1.33.1
    workers:
      machineDeployments:
      - class: default-worker
        name: md-0
        replicas: 1
      - class: gpu-t4
        name: gpu-t4
        replicas: 2
        metadata:
          annotations:
            gpu.backstage.io/requests: ml/embedder=2
            gpu.backstage.io/sharing-mode: exclusive
            gpu.backstage.io/resource-name: nvidia.com/gpu
            gpu.backstage.io/gpu-model: t4
            gpu.backstage.io/limit-floor: "2"
`;

/** The ClusterClass with a CPU and a GPU worker class, and their templates. */
export const topologyClassYaml = `apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata:
  name: dev-test
spec:
  workers:
    machineDeployments:
    - class: default-worker
      bootstrap:
        templateRef:
          apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
          kind: KubeadmConfigTemplate
          name: dev-test-default-worker-bootstraptemplate
      infrastructure:
        templateRef:
          apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
          kind: OpenStackMachineTemplate
          name: dev-test-default-worker-machine
    - class: gpu-t4
      bootstrap:
        templateRef:
          apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
          kind: KubeadmConfigTemplate
          name: dev-test-gpu-t4-bootstraptemplate
      infrastructure:
        templateRef:
          apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
          kind: OpenStackMachineTemplate
          name: dev-test-gpu-t4-machine
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata:
  name: dev-test-default-worker-bootstraptemplate
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
          - name: cloud-provider
            value: external
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata:
  name: dev-test-gpu-t4-bootstraptemplate
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
          - name: cloud-provider
            value: external
          - name: node-labels
            value: gpu.backstage.io/pool=gpu-t4
          taints:
          - key: nvidia.com/gpu
            value: gpu-t4
            effect: NoSchedule
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: OpenStackMachineTemplate
metadata:
  name: dev-test-default-worker-machine
spec:
  template:
    spec:
      flavor:
        filter:
          name: m1.medium
      image:
        imageRef:
          name: node-image
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: OpenStackMachineTemplate
metadata:
  name: dev-test-gpu-t4-machine
spec:
  template:
    spec:
      flavor:
        filter:
          name: g2.5xlarge
      image:
        imageRef:
          name: node-image
`;

/** The team's Deployment on the GPU entry's nodes: 2 × 1 T4. */
export const topologyWorkloadYaml = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: embedder
  namespace: ml
spec:
  replicas: 2
  selector:
    matchLabels: {app: embedder}
  template:
    metadata:
      labels: {app: embedder}
    spec:
      nodeSelector:
        gpu.backstage.io/pool: gpu-t4
      tolerations:
      - key: nvidia.com/gpu
        operator: Exists
        effect: NoSchedule
      containers:
      - name: embedder
        image: ghcr.io/acme/embedder:1.4
        resources:
          limits:
            nvidia.com/gpu: 1
`;

/** The repository: the cluster's folder and the workload. */
export const topologyRepoFiles: Record<string, string> = {
  'clusters/ml-os/cluster.yaml': topologyClusterYaml,
  'clusters/ml-os/clusterclass.yaml': topologyClassYaml,
  'apps/ml/embedder/deployment.yaml': topologyWorkloadYaml,
};
