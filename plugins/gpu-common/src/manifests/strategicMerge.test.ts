import { strategicMerge } from './strategicMerge';

const pod = {
  containers: [
    { name: 'proxy', image: 'envoy:1' },
    { name: 'logs', image: 'fluent-bit:3' },
    { name: 'model', image: 'vllm:0.6' },
  ],
};

describe('strategicMerge', () => {
  it('keeps the base’s order of a merged list, whatever order the patch names its items in', () => {
    const merged = strategicMerge(pod, {
      containers: [{ name: 'model', resources: { limits: { gpu: 1 } } }],
    }) as any;
    expect(merged.containers.map((c: any) => c.name)).toEqual([
      'proxy',
      'logs',
      'model',
    ]);
  });

  it('orders a list as $setElementOrder says and never writes the directive', () => {
    const merged = strategicMerge(pod, {
      '$setElementOrder/containers': [{ name: 'model' }, { name: 'proxy' }],
      containers: [{ name: 'model', resources: { limits: { gpu: 1 } } }],
    }) as any;
    expect(merged.containers.map((c: any) => c.name)).toEqual([
      'model',
      'proxy',
      'logs',
    ]);
    expect(Object.keys(merged)).toEqual(['containers']);
    // Nor where the patch adds a map the base did not have.
    const added = strategicMerge(
      {},
      { spec: { '$setElementOrder/containers': [], containers: [] } },
    ) as any;
    expect(added).toEqual({ spec: { containers: [] } });
  });

  it('refuses a directive it does not carry out rather than write it into a manifest', () => {
    expect(() =>
      strategicMerge(pod, { containers: [{ name: 'logs', $patch: 'delete' }] }),
    ).toThrow('the directive "$patch" is not supported');
  });
});
