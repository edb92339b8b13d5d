import { parse } from 'yaml';
import { toYaml } from './canonical';

describe('toYaml', () => {
  it('writes block style with one trailing newline, quoting what would read as another type', () => {
    const value = {
      apiVersion: 'karpenter.sh/v1alpha1',
      kind: 'NodeOverlay',
      metadata: { name: 'gpu-t4', labels: { 'gpu.backstage.io/mig': 'false' } },
      spec: {
        capacity: { 'nvidia.com/gpu': '3' },
        requirements: [
          {
            key: 'node.kubernetes.io/instance-type',
            operator: 'In',
            values: ['g4dn.xlarge'],
          },
        ],
        empty: { map: {}, list: [] },
        devices: ['0x20B010DE'],
      },
    };
    expect(toYaml(value)).toBe(
      [
        'apiVersion: karpenter.sh/v1alpha1',
        'kind: NodeOverlay',
        'metadata:',
        '  name: gpu-t4',
        '  labels:',
        '    gpu.backstage.io/mig: "false"',
        'spec:',
        '  capacity:',
        '    nvidia.com/gpu: "3"',
        '  requirements:',
        '    - key: node.kubernetes.io/instance-type',
        '      operator: In',
        '      values:',
        '        - g4dn.xlarge',
        '  empty:',
        '    map: {}',
        '    list: []',
        '  devices:',
        '    - "0x20B010DE"',
        '',
      ].join('\n'),
    );
    expect(parse(toYaml(value))).toEqual(value);
  });

  it('never folds a long line (lineWidth 0), so a diff shows one changed line', () => {
    const long = `x${' word'.repeat(40)}`;
    expect(toYaml({ description: long })).toBe(`description: ${long}\n`);
  });

  it('writes a scalar document with its newline', () => {
    expect(toYaml('plain')).toBe('plain\n');
    expect(toYaml({})).toBe('{}\n');
  });
});
