/**
 * A small GitOps repository that `kustomize build` accepts and
 * validateGitOpsTree finds clean, laid out as Argo CD would apply it: the
 * cluster folder (pools, device-plugin and mig-parted ConfigMaps, default
 * cluster-profile names) and each app folder are separate kustomize roots.
 *
 * - gpu-t4-ts5: T4, 5 time slices per GPU (nvidia.com/gpu.shared), 1-GPU
 *   g4dn.xlarge, limit 2 GPUs; summarizer and chat run 3 replicas each
 *   (6 slices: 2 GPUs).
 * - gpu-t4: exclusive T4, limit 3 GPUs; recommender-api gets its GPU from a
 *   strategic-merge patch (3 replicas).
 * - gpu-a100-mig: A100-40GB split into 7 x 1g.5gb, 8-GPU p4d.24xlarge,
 *   limit 8 GPUs (one node); trainer runs 4 replicas of nvidia.com/mig-1g.5gb.
 *
 * @public
 */
export function gpuRepoFiles(): Record<string, string> {
  return {
    'clusters/dev/kustomization.yaml': 'resources:\n  - gpu\n',
    'clusters/dev/gpu/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - nodepools/gpu-t4-ts5.yaml
  - nodepools/gpu-t4.yaml
  - nodepools/gpu-a100-mig.yaml
generatorOptions:
  disableNameSuffixHash: true
configMapGenerator:
  - name: nvidia-device-plugin-configs
    namespace: gpu-operator
    files:
      - ts-5=device-plugin/ts-5.yaml
  - name: custom-mig-parted-config
    namespace: gpu-operator
    files:
      - config.yaml=mig/config.yaml
`,
    'clusters/dev/gpu/device-plugin/ts-5.yaml': `version: v1
flags:
  migStrategy: none
sharing:
  timeSlicing:
    renameByDefault: true
    failRequestsGreaterThanOne: true
    resources:
      - name: nvidia.com/gpu
        replicas: 5
`,
    'clusters/dev/gpu/mig/config.yaml': `version: v1
mig-configs:
  all-disabled:
    - devices: all
      mig-enabled: false
  all-1g.5gb:
    - devices: all
      mig-enabled: true
      mig-devices:
        1g.5gb: 7
`,
    'clusters/dev/gpu/nodepools/gpu-t4-ts5.yaml': `${nodePool('gpu-t4-ts5', 't4', 'g4dn.xlarge', 2, 'nvidia.com/device-plugin.config: ts-5')}---
${nodeOverlay('gpu-t4-ts5', 1, 'nvidia.com/gpu.shared', 5)}`,
    'clusters/dev/gpu/nodepools/gpu-t4.yaml': nodePool(
      'gpu-t4',
      't4',
      'g4dn.xlarge',
      3,
    ),
    'clusters/dev/gpu/nodepools/gpu-a100-mig.yaml': `${nodePool('gpu-a100-mig', 'a100', 'p4d.24xlarge', 8, 'nvidia.com/mig.config: all-1g.5gb')}---
${nodeOverlay('gpu-a100-mig', 8, 'nvidia.com/mig-1g.5gb', 56)}`,
    ...app('summarizer', 'gpu-t4-ts5', 'nvidia.com/gpu.shared', 3),
    ...app('chat', 'gpu-t4-ts5', 'nvidia.com/gpu.shared', 3),
    ...app('trainer', 'gpu-a100-mig', 'nvidia.com/mig-1g.5gb', 4),
    'apps/ml/recommender-api/kustomization.yaml': `resources:
  - deployment.yaml
patches:
  - path: gpu-patch.yaml
`,
    'apps/ml/recommender-api/deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: recommender-api
  namespace: ml
spec:
  replicas: 3
  selector:
    matchLabels: { app: recommender-api }
  template:
    metadata:
      labels: { app: recommender-api }
    spec:
      containers:
        - name: api
          image: ghcr.io/example/recommender-api:2.0.1
`,
    'apps/ml/recommender-api/gpu-patch.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: recommender-api
  namespace: ml
spec:
  template:
    spec:
      nodeSelector:
        karpenter.sh/nodepool: gpu-t4
      tolerations:
        - { key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }
      containers:
        - name: api
          resources:
            limits:
              nvidia.com/gpu: 1
`,
  };
}

function nodePool(
  name: string,
  gpuName: string,
  instanceType: string,
  gpuLimit: number,
  configLabel = '',
): string {
  return `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: ${name}
spec:
  template:
    metadata:
      labels:
        gpu.backstage.io/pool: ${name}${configLabel ? `\n        ${configLabel}` : ''}
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu }
      requirements:
        - { key: karpenter.k8s.aws/instance-gpu-name, operator: In, values: [${gpuName}] }
        - { key: node.kubernetes.io/instance-type, operator: In, values: [${instanceType}] }
      taints:
        - { key: nvidia.com/gpu, value: "true", effect: NoSchedule }
  limits:
    nvidia.com/gpu: "${gpuLimit}"
`;
}

function nodeOverlay(
  pool: string,
  gpuCount: number,
  resource: string,
  capacity: number,
): string {
  return `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: ${pool}-${gpuCount}gpu
spec:
  requirements:
    - { key: karpenter.sh/nodepool, operator: In, values: [${pool}] }
    - { key: karpenter.k8s.aws/instance-gpu-count, operator: In, values: ["${gpuCount}"] }
  capacity:
    ${resource}: "${capacity}"
`;
}

function app(
  name: string,
  pool: string,
  resource: string,
  replicas: number,
): Record<string, string> {
  return {
    [`apps/ml/${name}/kustomization.yaml`]:
      'namespace: ml\nresources:\n  - deployment.yaml\n',
    [`apps/ml/${name}/deployment.yaml`]: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name} }
    spec:
      nodeSelector:
        karpenter.sh/nodepool: ${pool}
      tolerations:
        - { key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }
      containers:
        - name: ${name}
          image: ghcr.io/example/${name}:1.0.0
          resources:
            limits:
              ${resource}: 1
`,
  };
}
