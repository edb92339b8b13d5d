/**
 * A repository where GPU workloads choose their pool by labels other than
 * the pool's name, as teams write them: a hand-written NodePool of EC2 G5
 * machines (no ledger) that a Deployment selects only by
 * `karpenter.k8s.aws/instance-family: g5`, and a Deployment asking for a
 * P5 family no pool launches. Added to a repository holding cluster dev's
 * GPU folder (`existingRepoFiles`, the project's fixture repository).
 */
export const g5PoolFile = `# The LLM team's G5 pool, written by hand.
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-g5
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: gpu
      requirements:
        - key: karpenter.k8s.aws/instance-family
          operator: In
          values: ["g5"]
        - key: karpenter.sh/capacity-type
          operator: In
          values: ["on-demand"]
      taints:
        - key: nvidia.com/gpu
          effect: NoSchedule
  limits:
    nvidia.com/gpu: 16
`;

function gpuDeployment(name: string, family: string, gpus: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ml
spec:
  replicas: 3
  selector:
    matchLabels: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name}, backstage.io/kubernetes-id: ${name} }
    spec:
      nodeSelector:
        karpenter.k8s.aws/instance-family: ${family}
      tolerations:
        - key: nvidia.com/gpu
          operator: Exists
          effect: NoSchedule
      containers:
        - name: server
          image: vllm/vllm-openai:v0.6.0
          resources:
            limits:
              nvidia.com/gpu: ${gpus}
`;
}

/** The files to add: the G5 pool, a workload on it by family, one on a family no pool has. */
export const landingRepoFiles: Record<string, string> = {
  'clusters/dev/gpu/nodepools/gpu-g5.yaml': g5PoolFile,
  'apps/ml/llm-g5/deployment.yaml': gpuDeployment('llm-g5', 'g5', 2),
  'apps/ml/llm-p5/deployment.yaml': gpuDeployment('llm-p5', 'p5', 8),
};

/** A DRA pool of the product's (its resource is the DeviceClass) and a DRA workload with no node selector. */
export const draRepoFiles: Record<string, string> = {
  'clusters/dev/gpu/nodepools/gpu-l4-dra.yaml': `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-l4-dra
  labels: { app.kubernetes.io/managed-by: backstage-gpu-gitops }
  annotations:
    gpu.backstage.io/sharing-mode: dra
    gpu.backstage.io/resource-name: gpu.nvidia.com
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu }
      requirements:
        - { key: karpenter.k8s.aws/instance-family, operator: In, values: ["g6"] }
`,
  'apps/ml/embed/deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: { name: embed, namespace: ml }
spec:
  replicas: 2
  selector: { matchLabels: { app: embed } }
  template:
    metadata: { labels: { app: embed } }
    spec:
      tolerations: [{ key: nvidia.com/gpu, operator: Exists }]
      resourceClaims: [{ name: gpu, resourceClaimTemplateName: one-gpu }]
      containers:
        - name: embed
          image: embed:1
          resources: { claims: [{ name: gpu }] }
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: { name: one-gpu, namespace: ml }
spec:
  spec:
    devices:
      requests:
        - name: gpu
          exactly: { deviceClassName: gpu.nvidia.com, count: 1 }
`,
};
