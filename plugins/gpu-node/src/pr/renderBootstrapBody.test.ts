import type { BootstrapChangeSet } from '../changes/bootstrap/bootstrapChangeSet';
import { renderBootstrapBody } from './renderBootstrapBody';

const changeSet = (
  gpuOperatorRelease: BootstrapChangeSet['gpuOperatorRelease'],
): BootstrapChangeSet => ({
  changes: [
    {
      path: 'clusters/auto-ml/gpu/kustomization.yaml',
      action: 'create',
      content: 'resources: []\n',
    },
  ],
  empty: false,
  gpuOperatorRelease,
  notes: ['EKS Auto Mode runs the NVIDIA driver and device plugin.'],
});

describe('renderBootstrapBody', () => {
  it('on EKS Auto Mode says no GPU Operator is installed and promises no EC2NodeClass', () => {
    const body = renderBootstrapBody('auto-ml', changeSet('eks-auto-mode'));
    expect(body).toContain(
      '- NVIDIA GPU Operator: none. EKS Auto Mode runs the NVIDIA driver and device plugin',
    );
    expect(body).not.toContain('EC2NodeClass');
    expect(body).not.toContain('ClusterPolicy');
    expect(body).toContain(
      '- create `clusters/auto-ml/gpu/kustomization.yaml`',
    );
  });

  it('on GKE says GKE runs the GPU stack and promises neither GPU Operator nor EC2NodeClass', () => {
    const body = renderBootstrapBody('gke-ml', changeSet('gke'));
    expect(body).toContain(
      '- NVIDIA GPU Operator: none. GKE runs the NVIDIA driver and device plugin on its GPU nodes',
    );
    expect(body).not.toContain('EC2NodeClass');
    expect(body).not.toContain('ClusterPolicy');
  });

  it("elsewhere describes the bootstrap's own GPU Operator release and the node class", () => {
    const body = renderBootstrapBody('dev', changeSet('bootstrap'));
    expect(body).toContain(
      "the bootstrap's own is in the cluster's `gpu-operator/` folder",
    );
    expect(body).toContain('GPU EC2NodeClass');
  });
});
