import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import {
  defaultClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { RepoTree } from '../../repo/tree';

/**
 * A realistic existing GitOps repository: comments everywhere, an existing
 * shared T4 pool (NodePool + NodeOverlay in one multi-document file), unrelated
 * apps and CPU NodePool, an empty kustomization, a broken YAML file.
 */
/** The least a repository holds once the gpu-cluster-bootstrap ran for cluster dev. */
export const bootstrappedFiles: Record<string, string> = {
  'clusters/dev/gpu/kustomization.yaml':
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n',
};

export const existingRepoFiles: Record<string, string> = {
  'clusters/dev/kustomization.yaml': `# Everything Argo CD applies to the dev cluster.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - karpenter/default-nodepool.yaml
  - gpu
`,
  'clusters/dev/gpu/kustomization.yaml': `# GPU capacity of the dev cluster, managed by the Backstage GPU self-service.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - nodepools/gpu-t4-ts4.yaml # the shared inference pool
generatorOptions:
  disableNameSuffixHash: true
configMapGenerator:
  # Named device-plugin configs (ClusterPolicy devicePlugin.config.name).
  - name: device-plugin-config
    namespace: gpu-operator
    files:
      - ts-4=device-plugin/ts-4.yaml
  # mig-parted configs; key must be config.yaml.
  - name: mig-parted-config
    namespace: gpu-operator
    files:
      - config.yaml=mig/config.yaml
`,
  'clusters/dev/gpu/device-plugin/ts-4.yaml': `# T4 inference pool: 4 time slices per GPU.
version: v1
flags:
  migStrategy: none
sharing:
  timeSlicing:
    renameByDefault: true
    failRequestsGreaterThanOne: true
    resources:
      - name: nvidia.com/gpu
        replicas: 4
`,
  'clusters/dev/gpu/mig/config.yaml': `# mig-parted config; all-disabled is the ClusterPolicy default and must stay.
version: v1
mig-configs:
  # keep: referenced by the GPU Operator default
  all-disabled:
    - devices: all
      mig-enabled: false
  all-balanced:
    - devices: all
      mig-enabled: true
      mig-devices:
        1g.5gb: 2
        2g.10gb: 1
        3g.20gb: 1
`,
  'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml': `# Shared T4 pool for small inference services (4 time slices per GPU).
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-t4-ts4
  labels:
    app.kubernetes.io/managed-by: backstage-gpu-gitops
  annotations:
    gpu.backstage.io/gpu-model: t4
    gpu.backstage.io/sharing-mode: time-slicing
    gpu.backstage.io/resource-name: nvidia.com/gpu.shared
    gpu.backstage.io/slices-per-gpu: "4"
spec:
  template:
    metadata:
      labels:
        gpu.backstage.io/pool: gpu-t4-ts4
        nvidia.com/device-plugin.config: ts-4
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: gpu
      requirements:
        - key: karpenter.k8s.aws/instance-gpu-manufacturer
          operator: In
          values: ["nvidia"]
        - key: karpenter.k8s.aws/instance-gpu-name
          operator: In
          values: ["t4"]
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["g4dn.xlarge"]
        - key: karpenter.sh/capacity-type
          operator: In
          values: ["on-demand"]
      taints:
        - key: nvidia.com/gpu
          value: "true"
          effect: NoSchedule
      expireAfter: 720h
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 5m
  limits:
    nvidia.com/gpu.shared: "8" # raised by GPU requests
---
# Karpenter only knows physical GPUs: a 1-GPU g4dn node offers 4 slices.
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: gpu-t4-ts4-1gpu
spec:
  requirements:
    - key: karpenter.sh/nodepool
      operator: In
      values: ["gpu-t4-ts4"]
    - key: karpenter.k8s.aws/instance-gpu-count
      operator: In
      values: ["1"]
  capacity:
    nvidia.com/gpu.shared: "4"
`,
  'clusters/dev/karpenter/default-nodepool.yaml': `# General-purpose CPU capacity. Never edited by the GPU self-service.
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
        - key: karpenter.sh/capacity-type
          operator: In
          values: ["spot", "on-demand"]
  limits:
    cpu: "1000"
`,
  'apps/kustomization.yaml': '',
  'apps/ml/kustomization.yaml': `# ML namespace apps
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - chat-assistant
  - recommender-api
`,
  'apps/ml/chat-assistant/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - deployment.yaml
`,
  'apps/ml/chat-assistant/deployment.yaml': `# Small LLM chat service on the shared T4 pool.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: chat-assistant
  namespace: ml
  labels:
    backstage.io/kubernetes-id: chat-assistant
spec:
  replicas: 2
  selector:
    matchLabels:
      app.kubernetes.io/name: chat-assistant
  template:
    metadata:
      labels:
        app.kubernetes.io/name: chat-assistant
    spec:
      nodeSelector:
        karpenter.sh/nodepool: gpu-t4-ts4
      tolerations:
        - key: nvidia.com/gpu
          operator: Exists
          effect: NoSchedule
      containers:
        - name: chat-assistant
          image: ghcr.io/example/chat-assistant:1.4.2
          resources:
            limits:
              nvidia.com/gpu.shared: 1
---
apiVersion: v1
kind: Service
metadata:
  name: chat-assistant
  namespace: ml
spec:
  selector:
    app.kubernetes.io/name: chat-assistant
  ports:
    - port: 80
`,
  'apps/ml/recommender-api/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: ml
resources:
  - deployment.yaml
`,
  'apps/ml/recommender-api/deployment.yaml': `# CPU-only today; a GPU request adds a patch here.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: recommender-api
  namespace: ml
  labels:
    backstage.io/kubernetes-id: recommender-api
spec:
  replicas: 3
  selector:
    matchLabels:
      app.kubernetes.io/name: recommender-api
  template:
    metadata:
      labels:
        app.kubernetes.io/name: recommender-api
    spec:
      containers:
        - name: api
          image: ghcr.io/example/recommender-api:2.0.1
`,
  'apps/web/storefront/deployment.yaml': `# Unrelated web app: never touched by a GPU pull request.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: storefront
  namespace: web
spec:
  replicas: 4
  selector:
    matchLabels:
      app.kubernetes.io/name: storefront
  template:
    metadata:
      labels:
        app.kubernetes.io/name: storefront
    spec:
      containers:
        - name: web
          image: ghcr.io/example/storefront:5.12.0
`,
  'apps/web/storefront/broken.yaml': 'kind: [unclosed\n  - nope: {\n',
  'README.md': '# platform-gitops\n',
};

/** `existingRepoFiles` without the broken YAML file, for flows that read every file. */
export const buildableRepoFiles: Record<string, string> = Object.fromEntries(
  Object.entries(existingRepoFiles).filter(
    ([path]) => path !== 'apps/web/storefront/broken.yaml',
  ),
);

/** Cluster dev of `existingRepoFiles`: its NVIDIA ConfigMaps' names. */
export const devCluster: ClusterProfile = {
  ...defaultClusterProfile,
  name: 'dev',
  nodeClass: { ...defaultClusterProfile.nodeClass },
  devicePluginConfigMap: {
    name: 'device-plugin-config',
    namespace: 'gpu-operator',
  },
  migPartedConfigMap: { name: 'mig-parted-config', namespace: 'gpu-operator' },
  // One cluster where every mode can be planned: MPS is refused under "mixed".
  migStrategy: 'single',
};

/** Writes files into a fresh temp directory and returns its path. */
export async function writeTempRepo(
  files: Record<string, string>,
): Promise<string> {
  const dir = await fs.mkdtemp(join(tmpdir(), 'gpu-gitops-repo-'));
  for (const [path, content] of Object.entries(files)) {
    const abs = join(dir, ...path.split('/'));
    await fs.mkdir(dirname(abs), { recursive: true });
    await fs.writeFile(abs, content, 'utf8');
  }
  return dir;
}

export async function removeTempRepo(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}

/** The kustomization of a one-manifest app folder (`deployment.yaml`), plus `more` lines. */
const appKustomization = (more = '') =>
  `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n${more}`;

/**
 * Adds the team's app `apps/ml/<name>` (its Deployment `manifest`) to
 * `existingRepoFiles`' ml folder, as a team lists a new app there;
 * `kustomizationMore` are lines its own kustomization adds (a `replicas:`).
 */
export async function addMlApp(
  tree: RepoTree,
  name: string,
  manifest: string,
  kustomizationMore?: string,
): Promise<void> {
  const listing = 'apps/ml/kustomization.yaml';
  await tree.writeFile(
    listing,
    (await tree.readFile(listing))!.replace(
      '  - recommender-api\n',
      `  - recommender-api\n  - ${name}\n`,
    ),
  );
  await tree.writeFile(
    `apps/ml/${name}/kustomization.yaml`,
    appKustomization(kustomizationMore),
  );
  await tree.writeFile(`apps/ml/${name}/deployment.yaml`, manifest);
}
