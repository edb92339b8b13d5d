import { ConfigReader } from '@backstage/config';
import type { JsonValue } from '@backstage/types';
import { readUtilizationConfig } from './readUtilizationConfig';

const read = (utilization: JsonValue) =>
  readUtilizationConfig(new ConfigReader({ gpu: { utilization } }), [
    'dev',
    'prod',
  ]);

describe('readUtilizationConfig', () => {
  it('is off without gpu.utilization, and fills its defaults', () => {
    expect(
      readUtilizationConfig(new ConfigReader({}), ['dev']),
    ).toBeUndefined();
    expect(
      read({
        clusters: {
          prod: { prometheusUrl: 'https://prom.example.com:9090/', token: 't' },
          dev: { prometheusUrl: 'http://prometheus.monitoring:9090' },
        },
      }),
    ).toEqual({
      window: '7d',
      refresh: { minutes: 5 },
      targets: [
        {
          cluster: 'dev',
          baseUrl: 'http://prometheus.monitoring:9090',
          timeoutMs: 10_000,
        },
        {
          cluster: 'prod',
          baseUrl: 'https://prom.example.com:9090',
          token: 't',
          timeoutMs: 10_000,
        },
      ],
    });
  });

  it.each([
    [
      { window: 'a week' },
      'gpu.utilization.window: "a week" is not a PromQL duration',
    ],
    [
      { clusters: { staging: { prometheusUrl: 'http://p:9090' } } },
      'gpu.utilization.clusters.staging: "staging" is not a cluster profile (gpu.clusters.profiles: dev, prod)',
    ],
    [
      { clusters: { dev: { prometheusUrl: 'https://user:secret@p:9090' } } },
      'gpu.utilization.clusters.dev.prometheusUrl: must not carry credentials',
    ],
    [
      { clusters: { dev: { prometheusUrl: 'ftp://p' } } },
      'must be an http:// or https:// URL',
    ],
    [
      { clusters: { dev: { prometheusUrl: 'http://p', timeoutSeconds: 0 } } },
      'gpu.utilization.clusters.dev.timeoutSeconds: must be 1 to 300 seconds',
    ],
  ])('refuses %j at start-up naming the key', (utilization, message) => {
    expect(() => read(utilization)).toThrow(message);
  });

  it('never puts a credential it refuses in the message', () => {
    expect(() =>
      read({ clusters: { dev: { prometheusUrl: 'https://user:secret@p' } } }),
    ).toThrow(
      expect.objectContaining({
        message: expect.not.stringContaining('secret'),
      }),
    );
  });
});
