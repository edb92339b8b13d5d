import { GpuInputError } from '../errors';
import { parseGpuRequest } from './schema';

function validRequest(): any {
  return {
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name: 'llm-inference', namespace: 'ml-team' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model: 't4', sharing: 'time-slicing', replicas: 4, vramGiB: 4 },
      workload: { image: 'ghcr.io/acme/llm-server:1.2.3' },
    },
  };
}

function issuesOf(value: unknown) {
  try {
    parseGpuRequest(value);
  } catch (error) {
    expect(error).toBeInstanceOf(GpuInputError);
    return (error as GpuInputError).issues;
  }
  throw new Error('expected a GpuInputError');
}

function mutate(change: (r: any) => void) {
  const request = validRequest();
  change(request);
  return issuesOf(request);
}

describe('parseGpuRequest', () => {
  it('applies the defaults', () => {
    const request = validRequest();
    delete request.apiVersion;
    const parsed = parseGpuRequest(request);
    expect(parsed.apiVersion).toBe('gpu.backstage.io/v1alpha1');
    expect(parsed.spec.gpu.gpusPerReplica).toBe(1);
    expect(parsed.spec.capacityTypes).toEqual(['on-demand']);
    expect(parsed.spec.gpu.slicesPerGpu).toBeUndefined();
  });

  it('accepts an existing workload, spot capacity and several GPUs per replica', () => {
    const request = validRequest();
    request.spec.gpu = {
      model: 'auto',
      sharing: 'exclusive',
      replicas: 2,
      vramGiB: 100,
      gpusPerReplica: 2,
    };
    request.spec.workload = {
      existing: { kind: 'StatefulSet', name: 'trainer.v2' },
    };
    request.spec.capacityTypes = ['spot', 'on-demand'];
    const parsed = parseGpuRequest(request);
    expect(parsed.spec.gpu.gpusPerReplica).toBe(2);
    expect(parsed.spec.workload.existing).toEqual({
      kind: 'StatefulSet',
      name: 'trainer.v2',
    });
    expect(parsed.spec.capacityTypes).toEqual(['spot', 'on-demand']);
  });

  it.each(['Deployment', 'StatefulSet', 'Job', 'CronJob'])(
    'accepts an existing %s with the container that gets the GPU, and a cluster',
    kind => {
      const request = validRequest();
      request.spec.cluster = 'prod-eu';
      request.spec.workload = {
        existing: { kind, name: 'trainer', container: 'api' },
      };
      const parsed = parseGpuRequest(request);
      expect(parsed.spec.workload.existing).toEqual({
        kind,
        name: 'trainer',
        container: 'api',
      });
      expect(parsed.spec.cluster).toBe('prod-eu');
    },
  );

  it.each([
    'nginx',
    'nginx:1.27',
    'docker.io/library/nginx:latest',
    'localhost:5000/team/app:v1',
    `ghcr.io/acme/app@sha256:${'a'.repeat(64)}`,
    `registry.example.com:443/a/b/c:1.0@sha256:${'0'.repeat(64)}`,
  ])('accepts image %s', image => {
    const request = validRequest();
    request.spec.workload.image = image;
    expect(parseGpuRequest(request).spec.workload.image).toBe(image);
  });

  it.each([
    [
      'unknown top-level key',
      (r: any) => (r.extra = 1),
      'extra',
      'unknown-key',
    ],
    [
      'unknown metadata key',
      (r: any) => (r.metadata.labels = {}),
      'metadata.labels',
      'unknown-key',
    ],
    [
      'unknown gpu key',
      (r: any) => (r.spec.gpu.vram = 4),
      'spec.gpu.vram',
      'unknown-key',
    ],
    [
      'unknown workload key',
      (r: any) => (r.spec.workload.command = 'x'),
      'spec.workload.command',
      'unknown-key',
    ],
    [
      'unknown existing key',
      (r: any) =>
        (r.spec.workload = {
          existing: { kind: 'Deployment', name: 'a', ns: 'b' },
        }),
      'spec.workload.existing.ns',
      'unknown-key',
    ],
    [
      'wrong apiVersion',
      (r: any) => (r.apiVersion = 'v1'),
      'apiVersion',
      'enum',
    ],
    ['missing kind', (r: any) => delete r.kind, 'kind', 'required'],
    ['wrong kind', (r: any) => (r.kind = 'Deployment'), 'kind', 'enum'],
    [
      'uppercase name',
      (r: any) => (r.metadata.name = 'LLM'),
      'metadata.name',
      'dns1123-label',
    ],
    [
      'dotted name',
      (r: any) => (r.metadata.name = 'a.b'),
      'metadata.name',
      'dns1123-label',
    ],
    [
      'path traversal name',
      (r: any) => (r.metadata.name = '../etc'),
      'metadata.name',
      'dns1123-label',
    ],
    [
      'newline in name',
      (r: any) => (r.metadata.name = 'a\nb'),
      'metadata.name',
      'dns1123-label',
    ],
    [
      'name too long',
      (r: any) => (r.metadata.name = 'a'.repeat(64)),
      'metadata.name',
      'max',
    ],
    [
      'empty namespace',
      (r: any) => (r.metadata.namespace = ''),
      'metadata.namespace',
      'min',
    ],
    [
      'namespace with slash',
      (r: any) => (r.metadata.namespace = 'a/b'),
      'metadata.namespace',
      'dns1123-label',
    ],
    [
      'namespace trailing dash',
      (r: any) => (r.metadata.namespace = 'team-'),
      'metadata.namespace',
      'dns1123-label',
    ],
    [
      'zero replicas',
      (r: any) => (r.spec.gpu.replicas = 0),
      'spec.gpu.replicas',
      'min',
    ],
    [
      'negative replicas',
      (r: any) => (r.spec.gpu.replicas = -3),
      'spec.gpu.replicas',
      'min',
    ],
    [
      'absurd replicas',
      (r: any) => (r.spec.gpu.replicas = 1001),
      'spec.gpu.replicas',
      'max',
    ],
    [
      'fractional replicas',
      (r: any) => (r.spec.gpu.replicas = 1.5),
      'spec.gpu.replicas',
      'integer',
    ],
    [
      'string replicas',
      (r: any) => (r.spec.gpu.replicas = '4'),
      'spec.gpu.replicas',
      'type',
    ],
    [
      'zero vram',
      (r: any) => (r.spec.gpu.vramGiB = 0),
      'spec.gpu.vramGiB',
      'min',
    ],
    [
      'negative vram',
      (r: any) => (r.spec.gpu.vramGiB = -1),
      'spec.gpu.vramGiB',
      'min',
    ],
    [
      'absurd vram',
      (r: any) => (r.spec.gpu.vramGiB = 4096),
      'spec.gpu.vramGiB',
      'max',
    ],
    [
      'NaN vram',
      (r: any) => (r.spec.gpu.vramGiB = NaN),
      'spec.gpu.vramGiB',
      'type',
    ],
    [
      'infinite vram',
      (r: any) => (r.spec.gpu.vramGiB = Infinity),
      'spec.gpu.vramGiB',
      'type',
    ],
    [
      'missing vram',
      (r: any) => delete r.spec.gpu.vramGiB,
      'spec.gpu.vramGiB',
      'required',
    ],
    [
      'unknown sharing mode',
      (r: any) => (r.spec.gpu.sharing = 'vgpu'),
      'spec.gpu.sharing',
      'enum',
    ],
    [
      'model with uppercase',
      (r: any) => (r.spec.gpu.model = 'A100'),
      'spec.gpu.model',
      'model-id',
    ],
    [
      'gpusPerReplica with time-slicing',
      (r: any) => (r.spec.gpu.gpusPerReplica = 2),
      'spec.gpu.gpusPerReplica',
      'exclusive-only',
    ],
    [
      'gpusPerReplica zero',
      (r: any) => {
        r.spec.gpu.sharing = 'exclusive';
        r.spec.gpu.gpusPerReplica = 0;
      },
      'spec.gpu.gpusPerReplica',
      'min',
    ],
    [
      'slicesPerGpu with mps',
      (r: any) => {
        r.spec.gpu.sharing = 'mps';
        r.spec.gpu.slicesPerGpu = 4;
      },
      'spec.gpu.slicesPerGpu',
      'time-slicing-only',
    ],
    [
      'slicesPerGpu of 1',
      (r: any) => (r.spec.gpu.slicesPerGpu = 1),
      'spec.gpu.slicesPerGpu',
      'min',
    ],
    [
      'no workload target',
      (r: any) => (r.spec.workload = {}),
      'spec.workload',
      'exactly-one-of',
    ],
    [
      'both workload targets',
      (r: any) =>
        (r.spec.workload.existing = { kind: 'Deployment', name: 'x' }),
      'spec.workload',
      'exactly-one-of',
    ],
    [
      'bad existing kind',
      (r: any) => (r.spec.workload = { existing: { kind: 'Pod', name: 'x' } }),
      'spec.workload.existing.kind',
      'enum',
    ],
    [
      'bad existing container',
      (r: any) =>
        (r.spec.workload = {
          existing: { kind: 'Deployment', name: 'x', container: 'Api_1' },
        }),
      'spec.workload.existing.container',
      'dns1123-label',
    ],
    [
      'bad cluster',
      (r: any) => (r.spec.cluster = 'Prod EU'),
      'spec.cluster',
      'dns1123-label',
    ],
    [
      'bad existing name',
      (r: any) =>
        (r.spec.workload = { existing: { kind: 'Deployment', name: '../x' } }),
      'spec.workload.existing.name',
      'dns1123-subdomain',
    ],
    [
      'image with spaces',
      (r: any) => (r.spec.workload.image = 'nginx latest'),
      'spec.workload.image',
      'image-reference',
    ],
    [
      'image with uppercase path',
      (r: any) => (r.spec.workload.image = 'ghcr.io/Acme/App'),
      'spec.workload.image',
      'image-reference',
    ],
    [
      'image with shell',
      (r: any) => (r.spec.workload.image = 'nginx;rm -rf /'),
      'spec.workload.image',
      'image-reference',
    ],
    [
      'image with bad digest',
      (r: any) => (r.spec.workload.image = 'nginx@sha256:xyz'),
      'spec.workload.image',
      'image-reference',
    ],
    [
      'image too long',
      (r: any) => (r.spec.workload.image = `a/${'b'.repeat(600)}`),
      'spec.workload.image',
      'image-reference',
    ],
    [
      'owner without kind',
      (r: any) => (r.spec.owner = 'ml-platform'),
      'spec.owner',
      'entity-ref',
    ],
    [
      'owner with wrong kind',
      (r: any) => (r.spec.owner = 'component:default/x'),
      'spec.owner',
      'entity-ref',
    ],
    [
      'empty capacity types',
      (r: any) => (r.spec.capacityTypes = []),
      'spec.capacityTypes',
      'non-empty',
    ],
    [
      'duplicate capacity types',
      (r: any) => (r.spec.capacityTypes = ['spot', 'spot']),
      'spec.capacityTypes',
      'unique',
    ],
    [
      'unknown capacity type',
      (r: any) => (r.spec.capacityTypes = ['reserved']),
      'spec.capacityTypes.0',
      'enum',
    ],
    ['spec not an object', (r: any) => (r.spec = 'x'), 'spec', 'type'],
  ])('rejects %s', (_label, change, path, rule) => {
    const issues = mutate(change);
    expect(issues).toContainEqual(expect.objectContaining({ path, rule }));
  });

  it('names the unknown key in the message', () => {
    const issues = mutate(r => (r.spec.gpu.colour = 'green'));
    expect(issues[0].message).toContain('"colour"');
  });

  it('rejects values that are not objects', () => {
    expect(issuesOf(null)[0]).toEqual(
      expect.objectContaining({ path: '', rule: 'type' }),
    );
    expect(issuesOf([validRequest()])[0].rule).toBe('type');
  });

  it('reports every broken field at once', () => {
    const issues = mutate(r => {
      r.metadata.name = 'Bad';
      r.spec.gpu.replicas = 0;
    });
    expect(issues.map(i => i.path).sort()).toEqual([
      'metadata.name',
      'spec.gpu.replicas',
    ]);
  });
});
