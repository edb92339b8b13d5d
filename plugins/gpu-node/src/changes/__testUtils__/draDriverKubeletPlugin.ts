import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';

/**
 * The kubelet plugin DaemonSet of NVIDIA's DRA driver as a team deploys it
 * beside the product's GPU folder (kubernetes-sigs/dra-driver-nvidia-gpu
 * v0.4.1 `deployments/helm/dra-driver-nvidia-gpu/templates/kubeletplugin.yaml`,
 * rendered): its `gpus` container publishes the GPUs of the DRA pools' nodes,
 * the ones the GPU Operator's device plugin is kept off
 * (`nvidia.com/gpu.deploy.device-plugin: "false"`). The product's bootstrap
 * does not install the driver, so a DRA request needs this first.
 */
export const DRA_DRIVER_KUBELET_PLUGIN = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: dra-driver-nvidia-gpu-kubelet-plugin
  namespace: nvidia-dra-driver-gpu
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: dra-driver-nvidia-gpu
  template:
    metadata:
      labels:
        app.kubernetes.io/name: dra-driver-nvidia-gpu
    spec:
      nodeSelector:
        nvidia.com/gpu.deploy.device-plugin: "false"
      tolerations:
        - operator: Exists
      containers:
        - name: gpus
          image: registry.k8s.io/dra-driver-nvidia/dra-driver-nvidia-gpu:v0.4.1
`;

/** Deploys the DRA driver's kubelet plugin from the cluster's GPU folder (`dra-driver.yaml`, listed in its kustomization). */
export async function deployDraDriver(
  dir: string,
  gpuFolder: string,
): Promise<void> {
  await fs.writeFile(
    path.join(dir, gpuFolder, 'dra-driver.yaml'),
    DRA_DRIVER_KUBELET_PLUGIN,
  );
  const kustomization = path.join(dir, gpuFolder, 'kustomization.yaml');
  const listed = parseDocument(await fs.readFile(kustomization, 'utf8'));
  listed.addIn(['resources'], 'dra-driver.yaml');
  await fs.writeFile(kustomization, listed.toString());
}
