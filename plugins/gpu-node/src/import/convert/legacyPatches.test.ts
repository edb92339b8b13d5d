import {
  convertJsonPatch,
  convertStrategicMergePatch,
  type JsonPatch,
} from './legacyPatches';

const NODE_POOL = 'karpenter.sh/v1beta1 NodePool';
const NODE_CLASS = 'karpenter.k8s.aws/v1beta1 EC2NodeClass';

const nodePoolPatch = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.sh/v1beta1',
  kind: 'NodePool',
  metadata: { name: 'gpu' },
  spec,
});

describe('convertStrategicMergePatch', () => {
  it('keeps every field v1 keeps, under v1’s apiVersion', () => {
    const patch = nodePoolPatch({
      limits: { 'nvidia.com/gpu': '8' },
      weight: 10,
      template: {
        metadata: { labels: { team: 'ml' } },
        spec: {
          requirements: [
            {
              key: 'node.kubernetes.io/instance-type',
              operator: 'In',
              values: ['g5.xlarge'],
            },
          ],
          taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
        },
      },
    });
    expect(convertStrategicMergePatch(patch)).toEqual({
      converted: { ...patch, apiVersion: 'karpenter.sh/v1' },
    });
  });

  it('moves what v1 moved: expireAfter into the template, nodeClassRef’s apiVersion to its group', () => {
    const result = convertStrategicMergePatch(
      nodePoolPatch({
        disruption: { expireAfter: '336h', consolidateAfter: '10m' },
        template: {
          spec: {
            nodeClassRef: {
              apiVersion: 'karpenter.k8s.aws/v1beta1',
              kind: 'EC2NodeClass',
              name: 'gpu-large',
            },
          },
        },
      }),
    );
    expect(result).toEqual({
      converted: {
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodePool',
        metadata: { name: 'gpu' },
        spec: {
          disruption: { consolidateAfter: '10m' },
          template: {
            spec: {
              expireAfter: '336h',
              nodeClassRef: {
                group: 'karpenter.k8s.aws',
                kind: 'EC2NodeClass',
                name: 'gpu-large',
              },
            },
          },
        },
      },
    });
  });

  it('renames WhenUnderutilized and adds the consolidateAfter v1 requires with it', () => {
    expect(
      convertStrategicMergePatch(
        nodePoolPatch({
          disruption: { consolidationPolicy: 'WhenUnderutilized' },
        }),
      ),
    ).toMatchObject({
      converted: {
        spec: {
          disruption: {
            consolidationPolicy: 'WhenEmptyOrUnderutilized',
            consolidateAfter: '0s',
          },
        },
      },
    });
  });

  it.each([
    [
      nodePoolPatch({ template: { spec: { kubelet: { maxPods: 50 } } } }),
      /kubelet/,
    ],
    [
      nodePoolPatch({ template: { spec: { resources: { cpu: '4' } } } }),
      /resources/,
    ],
    [
      {
        apiVersion: 'karpenter.k8s.aws/v1beta1',
        kind: 'EC2NodeClass',
        metadata: { name: 'gpu' },
        spec: { amiFamily: 'Bottlerocket' },
      },
      /AMI choice/,
    ],
    [
      {
        apiVersion: 'karpenter.sh/v1alpha5',
        kind: 'Provisioner',
        metadata: { name: 'gpu' },
        spec: { ttlSecondsAfterEmpty: 30 },
      },
      /restructured in the NodePool/,
    ],
  ])('refuses what a patch cannot say in v1 (%#)', (patch, reason) => {
    const result = convertStrategicMergePatch(patch);
    expect(result).toEqual({ refused: expect.stringMatching(reason) });
  });

  it('an EC2NodeClass patch of fields v1 keeps is only re-versioned', () => {
    const patch = {
      apiVersion: 'karpenter.k8s.aws/v1beta1',
      kind: 'EC2NodeClass',
      metadata: { name: 'gpu' },
      spec: { tags: { team: 'ml' }, role: 'KarpenterNodeRole-prod' },
    };
    expect(convertStrategicMergePatch(patch)).toEqual({
      converted: { ...patch, apiVersion: 'karpenter.k8s.aws/v1' },
    });
  });

  it('leaves documents of other APIs alone', () => {
    expect(
      convertStrategicMergePatch({
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodePool',
        metadata: { name: 'gpu' },
      }),
    ).toBeUndefined();
    expect(
      convertStrategicMergePatch({ apiVersion: 'apps/v1', kind: 'Deployment' }),
    ).toBeUndefined();
  });
});

describe('convertJsonPatch', () => {
  const target = {
    group: 'karpenter.sh',
    version: 'v1beta1',
    kind: 'NodePool',
    name: 'gpu',
  };
  const json = (operations: Record<string, unknown>[]): JsonPatch => ({
    target,
    operations,
  });

  it('re-versions the target and moves each operation’s path as v1 moved the field', () => {
    expect(
      convertJsonPatch(
        json([
          { op: 'replace', path: '/spec/limits/nvidia.com~1gpu', value: '8' },
          { op: 'add', path: '/spec/disruption/expireAfter', value: '336h' },
          { op: 'remove', path: '/spec/template/spec/nodeClassRef/apiVersion' },
        ]),
        NODE_POOL,
      ),
    ).toEqual({
      converted: {
        target: { ...target, version: 'v1' },
        operations: [
          { op: 'replace', path: '/spec/limits/nvidia.com~1gpu', value: '8' },
          { op: 'add', path: '/spec/template/spec/expireAfter', value: '336h' },
          { op: 'remove', path: '/spec/template/spec/nodeClassRef/group' },
        ],
      },
    });
  });

  it('maps the leaves of an operation’s value, and keeps a target without a version as it is', () => {
    const versionless = {
      group: 'karpenter.sh',
      kind: 'NodePool',
      name: 'gpu',
    };
    expect(
      convertJsonPatch(
        {
          target: versionless,
          operations: [
            {
              op: 'replace',
              path: '/spec/template/spec/nodeClassRef',
              value: {
                apiVersion: 'karpenter.k8s.aws/v1beta1',
                kind: 'EC2NodeClass',
                name: 'big',
              },
            },
          ],
        },
        NODE_POOL,
      ),
    ).toEqual({
      converted: {
        target: versionless,
        operations: [
          {
            op: 'replace',
            path: '/spec/template/spec/nodeClassRef',
            value: {
              group: 'karpenter.k8s.aws',
              kind: 'EC2NodeClass',
              name: 'big',
            },
          },
        ],
      },
    });
  });

  it.each([
    [
      [
        {
          op: 'replace',
          path: '/spec/disruption',
          value: { consolidationPolicy: 'WhenEmpty', expireAfter: '720h' },
        },
      ],
      /moved to \/spec\/template\/spec\/expireAfter/,
    ],
    [
      [{ op: 'add', path: '/spec/template/spec/kubelet/maxPods', value: 50 }],
      /kubelet/,
    ],
    [
      [
        {
          op: 'replace',
          path: '/spec/disruption/consolidationPolicy',
          value: 'WhenUnderutilized',
        },
      ],
      /consolidateAfter 0s/,
    ],
  ])(
    'refuses operations a v1 patch cannot repeat (%#)',
    (operations, reason) => {
      expect(convertJsonPatch(json(operations), NODE_POOL)).toEqual({
        refused: expect.stringMatching(reason),
      });
    },
  );

  it('refuses an EC2NodeClass AMI change, and ignores APIs that are not legacy', () => {
    expect(
      convertJsonPatch(
        {
          target: {
            group: 'karpenter.k8s.aws',
            version: 'v1beta1',
            kind: 'EC2NodeClass',
          },
          operations: [
            { op: 'replace', path: '/spec/amiFamily', value: 'AL2023' },
          ],
        },
        NODE_CLASS,
      ),
    ).toEqual({ refused: expect.stringMatching(/AMI choice/) });
    expect(convertJsonPatch(json([]), 'apps/v1 Deployment')).toBeUndefined();
  });
});
