import { ConfigReader } from '@backstage/config';
import type { JsonObject } from '@backstage/types';
import { readDriftConfig } from './readDriftConfig';

const read = (config: JsonObject) =>
  readDriftConfig(new ConfigReader(config), ['dev', 'prod']);

/** Backstage's Kubernetes plugin config, as its docs show it. */
const kubernetes = (clusters: JsonObject[]) => ({
  clusterLocatorMethods: [{ type: 'catalog' }, { type: 'config', clusters }],
});

describe('readDriftConfig', () => {
  it('is off without gpu.utilization or without any cluster API', () => {
    expect(read({})).toBeUndefined();
    expect(
      read({
        gpu: {
          utilization: { clusters: { dev: { prometheusUrl: 'http://p' } } },
        },
      }),
    ).toBeUndefined();
  });

  it("takes a cluster from Backstage's kubernetes config by the profile's name, else the profile's own", () => {
    expect(
      read({
        kubernetes: kubernetes([
          {
            name: 'dev',
            url: 'https://dev.k8s.example.com/',
            authProvider: 'serviceAccount',
            serviceAccountToken: 'dev-token',
            caData: 'Q0E=',
          },
        ]),
        gpu: {
          utilization: {
            pendingMinutes: 15,
            clusters: {
              prod: {
                timeoutSeconds: 3,
                kubernetes: {
                  url: 'https://10.0.0.1:6443',
                  token: 'prod-token',
                },
              },
            },
          },
        },
      }),
    ).toEqual({
      pendingGraceMs: 15 * 60_000,
      targets: [
        {
          cluster: 'dev',
          server: 'https://dev.k8s.example.com',
          token: 'dev-token',
          caData: 'Q0E=',
          timeoutMs: 10_000,
        },
        {
          cluster: 'prod',
          server: 'https://10.0.0.1:6443',
          token: 'prod-token',
          timeoutMs: 3_000,
        },
      ],
    });
  });

  it('follows kubernetesCluster to a differently named cluster; in-cluster service accounts read their mounted token', () => {
    expect(
      read({
        kubernetes: kubernetes([
          {
            name: 'eks-prod-eu',
            url: 'https://prod',
            authProvider: 'serviceAccount',
          },
        ]),
        gpu: {
          utilization: {
            clusters: { prod: { kubernetesCluster: 'eks-prod-eu' } },
          },
        },
      })?.targets,
    ).toEqual([
      {
        cluster: 'prod',
        server: 'https://prod',
        tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
        caFile: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
        timeoutMs: 10_000,
      },
    ]);
  });

  it('keeps a cluster it cannot act as, with the reason, instead of failing start-up', () => {
    const [target] = read({
      kubernetes: kubernetes([
        { name: 'dev', url: 'https://dev', authProvider: 'aws' },
      ]),
      gpu: { utilization: {} },
    })!.targets;
    expect(target.unusable).toBe(
      'the Kubernetes cluster "dev" uses authProvider aws; drift reads need a service account: set its serviceAccountToken, or gpu.utilization.clusters.dev.kubernetes',
    );
  });

  it('refuses bad values by key, never repeating a URL that may hold a secret', () => {
    expect(() =>
      read({
        gpu: {
          utilization: {
            clusters: {
              dev: { kubernetes: { url: 'https://admin:s3cret@10.0.0.1' } },
            },
          },
        },
      }),
    ).toThrow(
      'gpu.utilization.clusters.dev.kubernetes.url: must not carry credentials; give a token instead',
    );
    // The rule it applies: a plain-http API server (a local proxy) passes.
    expect(() =>
      read({
        gpu: {
          utilization: {
            clusters: { dev: { kubernetes: { url: 'ftp://10.0.0.1' } } },
          },
        },
      }),
    ).toThrow(
      'gpu.utilization.clusters.dev.kubernetes.url: must be an http:// or https:// URL',
    );
    expect(() =>
      read({
        gpu: {
          utilization: {
            clusters: { dev: { kubernetes: { url: 'not a url s3cret' } } },
          },
        },
      }),
    ).toThrow(
      /^gpu\.utilization\.clusters\.dev\.kubernetes\.url: is not a URL/,
    );
    expect(() =>
      read({
        kubernetes: kubernetes([]),
        gpu: {
          utilization: { clusters: { dev: { kubernetesCluster: 'nope' } } },
        },
      }),
    ).toThrow(
      'gpu.utilization.clusters.dev.kubernetesCluster: "nope" is not a cluster of kubernetes.clusterLocatorMethods (type: config)',
    );
    expect(() => read({ gpu: { utilization: { pendingMinutes: 0 } } })).toThrow(
      'gpu.utilization.pendingMinutes: must be 1 to 1440 minutes',
    );
  });
});
