/**
 * Repository files as platform teams write them for what runs on their GPU
 * nodes, shaped after the upstream sources they copy:
 *
 * - NVIDIA k8s-device-plugin v0.17.1 `deployments/static/nvidia-device-plugin.yml`
 *   (the static DaemonSet) and its README, "Deployment via helm" (the
 *   `nvidia-device-plugin` chart from https://nvidia.github.io/k8s-device-plugin),
 *   here as a Flux HelmRelease;
 * - an EC2NodeClass of Bottlerocket's NVIDIA variant with its device plugin's
 *   time-slicing settings (Bottlerocket `settings.kubelet-device-plugins.nvidia`,
 *   karpenter.sh v1 EC2NodeClass `amiSelectorTerms` alias);
 * - an Argo CD Application of the GPU Operator chart with the MIG manager
 *   turned off (gpu-operator v26.7.0 `values.yaml`, `migManager.enabled`).
 */

export const STATIC_DEVICE_PLUGIN = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: nvidia-device-plugin-daemonset
  namespace: kube-system
spec:
  selector:
    matchLabels:
      name: nvidia-device-plugin-ds
  updateStrategy:
    type: RollingUpdate
  template:
    metadata:
      labels:
        name: nvidia-device-plugin-ds
    spec:
      tolerations:
      - key: nvidia.com/gpu
        operator: Exists
        effect: NoSchedule
      priorityClassName: "system-node-critical"
      containers:
      - image: nvcr.io/nvidia/k8s-device-plugin:v0.17.1
        name: nvidia-device-plugin-ctr
        env:
          - name: FAIL_ON_INIT_ERROR
            value: "false"
        securityContext:
          allowPrivilegeEscalation: false
          capabilities:
            drop: ["ALL"]
        volumeMounts:
        - name: device-plugin
          mountPath: /var/lib/kubelet/device-plugins
      volumes:
      - name: device-plugin
        hostPath:
          path: /var/lib/kubelet/device-plugins
`;

/** A Flux HelmRelease of the standalone chart; `values` indented four spaces. */
export const fluxDevicePluginChart = (values: string) => `---
apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: nvdp
  namespace: flux-system
spec:
  interval: 24h
  url: https://nvidia.github.io/k8s-device-plugin
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: nvidia-device-plugin
  namespace: gpu-operator
spec:
  interval: 30m
  targetNamespace: gpu-operator
  chart:
    spec:
      chart: nvidia-device-plugin
      version: 0.17.1
      sourceRef:
        kind: HelmRepository
        name: nvdp
        namespace: flux-system
  values:
${values}
`;

/**
 * The standalone chart's values with GPU feature discovery, as NVIDIA's
 * README "Deploying with gpu-feature-discovery for automatic node labels"
 * installs it (`--set gfd.enabled=true`, k8s-device-plugin v0.18.0
 * `README.md`), which pulls in the chart's NFD subchart as well (`Chart.yaml`:
 * `node-feature-discovery`, alias `nfd`, condition `nfd.enabled,gfd.enabled`);
 * `nfdWorkerTolerations` true: its NFD workers also tolerate the GPU taint
 * with any value (the chart's own default tolerates only `nvidia.com/gpu=present`).
 */
export const gfdChartValues = (nfdWorkerTolerations = false) =>
  `    gfd:\n      enabled: true${
    nfdWorkerTolerations
      ? '\n    nfd:\n      worker:\n        tolerations:\n        - key: nvidia.com/gpu\n          operator: Exists\n          effect: NoSchedule'
      : ''
  }`;

export const BOTTLEROCKET_NODE_CLASS = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: gpu
spec:
  amiSelectorTerms:
    - alias: bottlerocket@latest
  role: KarpenterNodeRole-prod
  subnetSelectorTerms:
    - tags:
        karpenter.sh/discovery: prod
  securityGroupSelectorTerms:
    - tags:
        karpenter.sh/discovery: prod
  userData: |
    [settings.kubelet-device-plugins.nvidia]
    device-sharing-strategy = "time-slicing"
    [settings.kubelet-device-plugins.nvidia.time-slicing]
    replicas = 4
    rename-by-default = true
`;

/** An app-of-apps child Application installing the GPU Operator without its MIG manager. */
export const ARGO_GPU_OPERATOR_WITHOUT_MIG_MANAGER = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: gpu-operator
  namespace: argocd
spec:
  project: default
  destination:
    server: https://kubernetes.default.svc
    namespace: gpu-operator
  source:
    repoURL: https://helm.ngc.nvidia.com/nvidia
    chart: gpu-operator
    targetRevision: v25.10.1
    helm:
      valuesObject:
        driver:
          enabled: false
        devicePlugin:
          config:
            name: nvidia-device-plugin-configs
            default: default
        migManager:
          enabled: false
          config:
            name: custom-mig-parted-config
        mig:
          strategy: mixed
  syncPolicy:
    automated: {}
`;

/** An app-of-apps child Application installing the GPU Operator with its own device plugin (the chart's default). */
export const ARGO_GPU_OPERATOR = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: gpu-operator
  namespace: argocd
spec:
  project: default
  destination: { server: https://kubernetes.default.svc, namespace: gpu-operator }
  source:
    repoURL: https://helm.ngc.nvidia.com/nvidia
    chart: gpu-operator
    targetRevision: v25.10.1
`;

/** A Flux HelmRelease of the GPU Operator with the MIG manager turned off (same chart values as the Argo CD one below). */
export const FLUX_GPU_OPERATOR_WITHOUT_MIG_MANAGER = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: gpu-operator
  namespace: gpu-operator
spec:
  interval: 1h
  chart:
    spec:
      chart: gpu-operator
      version: v25.10.1
      sourceRef: { kind: HelmRepository, name: nvidia, namespace: flux-system }
  values:
    driver: { enabled: false }
    devicePlugin:
      config: { name: nvidia-device-plugin-configs, default: default }
    migManager:
      enabled: false
      config: { name: custom-mig-parted-config }
    mig: { strategy: single }
`;
