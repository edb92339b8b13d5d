import { parse, stringify } from 'yaml';
import {
  buildManifests,
  builtinCatalog,
  parseGpuRequest,
  plan,
  resolveClusterProfile,
  viewWorkload,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { YAML_OPTIONS } from './canonical';
import { fastPlainYaml } from './fastYaml';

const byYaml = (value: unknown) => stringify(value, YAML_OPTIONS);

/**
 * Every value must come out exactly as `yaml` writes it, or not at all
 * (undefined: the caller uses `yaml`). Returns the fast path's answer.
 */
function expectSameAsYaml(value: unknown): string | undefined {
  const fast = fastPlainYaml(value);
  expect(fast ?? byYaml(value)).toBe(byYaml(value));
  return fast;
}

describe('fastPlainYaml', () => {
  it('writes every object we build exactly as yaml does, and handles the manifests itself', () => {
    const gpus: Array<Partial<GpuRequest['spec']['gpu']>> = [
      { model: 't4', sharing: 'time-slicing', replicas: 8, vramGiB: 4 },
      { model: 'a10g', sharing: 'exclusive', replicas: 2, vramGiB: 20 },
      { model: 'l4', sharing: 'mps', replicas: 6, vramGiB: 5 },
      { model: 'a100-40gb', sharing: 'mig', replicas: 4, vramGiB: 9 },
      { model: 'h100-80gb', sharing: 'mig', replicas: 14, vramGiB: 9 },
      { model: 'auto', sharing: 'time-slicing', replicas: 3, vramGiB: 6 },
      { model: 'a100-80gb', sharing: 'dra', replicas: 1, vramGiB: 40 },
    ];
    const workloads: GpuRequest['spec']['workload'][] = [
      { image: 'ghcr.io/acme/llm:1.2' },
      { existing: { kind: 'StatefulSet', name: 'trainer' } },
    ];
    const clusters = [
      resolveClusterProfile({ migStrategy: 'single' }),
      resolveClusterProfile({ generateNodeClass: true, migStrategy: 'single' }),
    ];
    let handled = 0;
    let total = 0;
    for (const cluster of clusters) {
      for (const gpu of gpus) {
        for (const workload of workloads) {
          const request = parseGpuRequest({
            kind: 'GpuRequest',
            metadata: { name: 'llm', namespace: 'ml' },
            spec: {
              owner: 'group:default/ml-platform',
              gpu,
              workload,
              capacityTypes: ['on-demand', 'spot'],
            },
          });
          const result = plan(request, builtinCatalog, cluster);
          const manifests = buildManifests(result, cluster, {
            existing: workload.existing
              ? {
                  kind: 'StatefulSet',
                  name: 'trainer',
                  container: 'trainer',
                  current: viewWorkload('StatefulSet', {
                    metadata: { name: 'trainer' },
                    spec: {
                      replicas: 1,
                      template: { spec: { containers: [{ name: 'trainer' }] } },
                    },
                  }),
                }
              : undefined,
          });
          const values: unknown[] = [
            ...manifests.pool.objects,
            ...manifests.workload.objects,
            request,
          ];
          if (manifests.devicePluginConfig) {
            values.push(manifests.devicePluginConfig.config);
          }
          if (manifests.migConfig) values.push(manifests.migConfig.entries);
          for (const value of values) {
            total++;
            if (expectSameAsYaml(value) !== undefined) handled++;
          }
        }
      }
    }
    // The point is speed: nearly everything must take the fast path.
    expect(handled / total).toBeGreaterThan(0.97);
  });

  it('lays out nested maps and lists as yaml does', () => {
    const value = {
      empty: { map: {}, list: [] },
      list: [
        'a',
        { k: 1, nested: { deeper: [1, 2] } },
        [1, [2, 3], {}],
        [],
        null,
      ],
      numbers: [0, -1, 1.5, 1e21, 1e-7],
      flags: [true, false],
      keys: { 'nvidia.com/gpu': 1, 'app.kubernetes.io/name': 'x' },
    };
    expect(expectSameAsYaml(value)).toBeDefined();
    expect(expectSameAsYaml([{ a: 1 }, [[1]]])).toBeDefined();
    expect(expectSameAsYaml({})).toBe('{}\n');
    expect(expectSameAsYaml([])).toBe('[]\n');
  });

  it.each([
    '',
    ' lead',
    'trail ',
    'two words',
    'a: b',
    'a:',
    'a #b',
    '#x',
    '-a',
    '- a',
    '---',
    '...',
    '.5',
    '.inf',
    '.nan',
    '1',
    '-1',
    '+1',
    '1.0',
    '1e3',
    '1_000',
    '0x1F',
    '0o17',
    '0b101',
    '12:30',
    '190:20:30',
    'null',
    'Null',
    '~',
    'true',
    'False',
    'yes',
    'No',
    'on',
    'OFF',
    'y',
    '@x',
    '`x',
    '%x',
    '!x',
    '&x',
    '*x',
    '?x',
    '|',
    '>',
    '[x]',
    '{x}',
    'a,b',
    "'q'",
    '"q"',
    '<<',
    '=',
    'line\nbreak',
    'tab\there',
    'ñandú',
    'ghcr.io/acme/llm:1.2',
    '4Gi',
    '10m',
    '/var/lib',
    'a@b',
    'a+b=c',
    'x:y:z',
  ])('string %j: same as yaml, in every position, and reads back', s => {
    for (const value of [{ key: s }, { [s]: 1 }, [s], { list: [s] }, s]) {
      const written = expectSameAsYaml(value) ?? byYaml(value);
      expect(parse(written)).toEqual(value);
    }
  });

  it('leaves to yaml what it cannot be sure of', () => {
    const shared = { a: 1 };
    for (const value of [
      { x: shared, y: shared }, // yaml writes an anchor and an alias
      { x: undefined },
      [undefined],
      { x: new Date(0) },
      { x: Number.NaN },
      { x: -0 }, // yaml writes -0, JSON 0
      { x: Infinity },
      { x: BigInt(1) },
      { x: new Map() },
      { text: 'line one\nline two' },
    ]) {
      expect(fastPlainYaml(value)).toBeUndefined();
    }
  });
});
