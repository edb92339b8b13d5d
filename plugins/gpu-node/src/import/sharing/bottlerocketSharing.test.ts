import { bottlerocketSharing } from './bottlerocketSharing';

const nodeClass = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'gpu' },
  spec,
});

const bottlerocket = (userData: string) =>
  nodeClass({ amiSelectorTerms: [{ alias: 'bottlerocket@1.54.0' }], userData });

describe('Bottlerocket’s device plugin settings in a node class’s user data', () => {
  it('reads MPS with its replicas and rename', () => {
    expect(
      bottlerocketSharing(
        bottlerocket(
          '[settings.kubelet-device-plugins.nvidia]\ndevice-sharing-strategy = "mps"\n\n[settings.kubelet-device-plugins.nvidia.mps]\nreplicas = 2\n',
        ),
      ),
    ).toMatchObject({ mode: 'mps', slicesPerGpu: 2, renameByDefault: false });
  });

  it('gives whole GPUs with no strategy, "none", or another OS', () => {
    expect(
      bottlerocketSharing(
        bottlerocket('[settings.kubernetes]\nmax-pods = 110\n'),
      ),
    ).toBeUndefined();
    expect(
      bottlerocketSharing(
        bottlerocket(
          'settings.kubelet-device-plugins.nvidia.device-sharing-strategy = "none"\n',
        ),
      ),
    ).toBeUndefined();
    // AL2023 user data is a shell script or MIME, not Bottlerocket's TOML.
    expect(
      bottlerocketSharing(
        nodeClass({
          amiSelectorTerms: [{ alias: 'al2023@latest' }],
          userData:
            '[settings.kubelet-device-plugins.nvidia]\ndevice-sharing-strategy = "time-slicing"\n',
        }),
      ),
    ).toBeUndefined();
  });

  it('reads dotted keys as tables (amiFamily Bottlerocket)', () => {
    expect(
      bottlerocketSharing(
        nodeClass({
          amiFamily: 'Bottlerocket',
          userData:
            'settings.kubelet-device-plugins.nvidia.device-sharing-strategy = "time-slicing"\nsettings.kubelet-device-plugins.nvidia.time-slicing.replicas = 8\n',
        }),
      ),
    ).toMatchObject({
      mode: 'time-slicing',
      slicesPerGpu: 8,
      renameByDefault: false,
    });
  });

  it('says so when the user data is not TOML', () => {
    expect(bottlerocketSharing(bottlerocket('[settings\n'))).toEqual({
      unreadable: expect.stringMatching(
        /^its spec\.userData is not TOML Bottlerocket reads/,
      ),
    });
  });
});
