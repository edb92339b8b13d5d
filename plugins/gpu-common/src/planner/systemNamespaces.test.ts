import { resolveClusterProfile } from '../cluster';
import { builtinCatalog } from '../catalog/builtin';
import { isGpuInputError } from '../errors';
import { parseGpuRequest } from '../request/schema';
import { plan } from './plan';

function requestIn(namespace: string) {
  return parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name: 'llm', namespace },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model: 't4', sharing: 'time-slicing', replicas: 2, vramGiB: 4 },
      workload: { image: 'ghcr.io/acme/llm:1.0' },
    },
  });
}

function refusal(namespace: string, override?: object) {
  try {
    plan(requestIn(namespace), builtinCatalog, resolveClusterProfile(override));
  } catch (error) {
    if (isGpuInputError(error)) return error.issues[0];
    throw error;
  }
  return undefined;
}

describe('system namespaces', () => {
  it.each([
    'kube-system',
    'kube-public',
    'kube-node-lease',
    'gpu-operator',
    'karpenter',
  ])('refuses %s, naming the field and the rule', namespace => {
    expect(refusal(namespace)).toMatchObject({
      path: 'metadata.namespace',
      rule: 'system-namespace',
      message: expect.stringContaining(`"${namespace}" is a system namespace`),
    });
  });

  it('takes the list from the cluster profile, plus the config ConfigMaps’ namespace', () => {
    const profile = {
      systemNamespaces: ['platform-ops'],
      devicePluginConfigMap: { namespace: 'nvidia' },
    };
    expect(refusal('platform-ops', profile)?.rule).toBe('system-namespace');
    expect(refusal('nvidia', profile)?.rule).toBe('system-namespace');
    expect(refusal('kube-system', profile)).toBeUndefined();
    expect(refusal('ml', profile)).toBeUndefined();
  });
});
