import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { schemaError } from '../../validate/schemas';
import type { PlainObject } from '../../repo/yamlObjects';
import {
  legacySchemaErrors,
  V1_0_0_NODEPOOL_CRD,
} from '../__testUtils__/legacyCrdSchemas';
import { lostLeaves, type LeafPath } from '../__testUtils__/fieldCoverage';
import {
  convertKarpenterObjects,
  type KarpenterOutput,
} from './convertKarpenterObjects';
import { secondsToDuration } from './durations';

const FIXTURES = path.join(__dirname, '..', '__fixtures__');

function objectsOf(...file: string[]): PlainObject[] {
  return parseAllDocuments(
    readFileSync(path.join(FIXTURES, ...file), 'utf8'),
  ).map(d => d.toJS() as PlainObject);
}

const nameOf = (o: PlainObject) => String((o.metadata as PlainObject).name);

function convertAll(objects: PlainObject[]): KarpenterOutput[] {
  return convertKarpenterObjects(
    objects.map(value => ({ key: `${value.kind}/${nameOf(value)}`, value })),
  );
}

const out = (outputs: KarpenterOutput[], key: string) =>
  outputs.find(o => o.key === key)!;

/** Where Karpenter's upgrade guides put each v1alpha5 Provisioner field in v1. */
function provisionerLeaf(className: string) {
  return (p: LeafPath, value: unknown) => {
    const [top, field, ...rest] = p;
    if (top === 'metadata') return { output: 'pool', path: p };
    const template = ['spec', 'template'];
    switch (field) {
      case 'labels':
      case 'annotations':
        return {
          output: 'pool',
          path: [...template, 'metadata', field, ...rest],
        };
      case 'requirements':
      case 'taints':
      case 'startupTaints':
        return { output: 'pool', path: [...template, 'spec', field, ...rest] };
      case 'providerRef':
        return rest[0] === 'name'
          ? {
              output: 'pool',
              path: [...template, 'spec', 'nodeClassRef', 'name'],
            }
          : rest[0] === 'apiVersion'
            ? {
                output: 'pool',
                path: [...template, 'spec', 'nodeClassRef', 'group'],
                value: String(value).split('/')[0],
              }
            : {
                output: 'pool',
                path: [...template, 'spec', 'nodeClassRef', 'kind'],
                value: 'EC2NodeClass',
              };
      case 'kubeletConfiguration':
        return { output: className, path: ['spec', 'kubelet', ...rest] };
      case 'ttlSecondsAfterEmpty':
        return {
          output: 'pool',
          path: ['spec', 'disruption', 'consolidateAfter'],
          value: secondsToDuration(Number(value)),
        };
      case 'ttlSecondsUntilExpired':
        return {
          output: 'pool',
          path: [...template, 'spec', 'expireAfter'],
          value: secondsToDuration(Number(value)),
        };
      case 'consolidation':
        return {
          output: 'pool',
          path: ['spec', 'disruption', 'consolidationPolicy'],
          value: value === true ? 'WhenEmptyOrUnderutilized' : 'WhenEmpty',
        };
      case 'limits':
        return { output: 'pool', path: ['spec', 'limits', ...rest.slice(1)] };
      case 'weight':
        return { output: 'pool', path: ['spec', 'weight'] };
      default:
        return undefined;
    }
  };
}

/** v1beta1 NodePool → v1: the same paths, but for nodeClassRef, kubelet and disruption. */
function nodePoolV1beta1Leaf(className: string) {
  return (p: LeafPath, value: unknown) => {
    const tail = p.slice(4);
    if (p[0] === 'spec' && p[1] === 'template' && p[3] === 'kubelet') {
      return { output: className, path: ['spec', 'kubelet', ...tail] };
    }
    if (p[3] === 'nodeClassRef' && p[4] === 'apiVersion') {
      return {
        output: 'pool',
        path: ['spec', 'template', 'spec', 'nodeClassRef', 'group'],
        value: String(value).split('/')[0],
      };
    }
    if (p[1] === 'disruption' && p[2] === 'expireAfter') {
      return {
        output: 'pool',
        path: ['spec', 'template', 'spec', 'expireAfter'],
      };
    }
    if (p[1] === 'disruption' && p[2] === 'consolidationPolicy') {
      return {
        output: 'pool',
        path: p,
        value:
          value === 'WhenUnderutilized' ? 'WhenEmptyOrUnderutilized' : value,
      };
    }
    return { output: 'pool', path: p };
  };
}

describe('the test inputs are legacy objects the old Karpenter accepted', () => {
  it.each([
    ['v1alpha5-repo', 'clusters/legacy/karpenter/provisioners.yaml'],
    ['v1alpha5-repo', 'clusters/legacy/karpenter/nodetemplates.yaml'],
    ['v1alpha5-repo', 'clusters/legacy/karpenter/default.yaml'],
    ['v1beta1-repo', 'clusters/prod/gpu/nodepools/gpu-l4.yaml'],
  ])('%s %s', (repo, file) => {
    for (const object of objectsOf(repo, file)) {
      expect(
        legacySchemaErrors(object as { apiVersion: string; kind: string }),
      ).toEqual([]);
    }
  });

  it('the legacy schema check can fail', () => {
    const [provisioner] = objectsOf(
      'v1alpha5-repo',
      'clusters/legacy/karpenter/provisioners.yaml',
    );
    const broken = {
      ...provisioner,
      spec: { weight: 'heavy', ttlSecondsAfterEmpty: 'soon' },
    };
    expect(
      legacySchemaErrors(
        broken as unknown as { apiVersion: string; kind: string },
      ),
    ).toEqual(
      expect.arrayContaining([expect.stringContaining('/spec/weight')]),
    );
  });
});

describe('v1alpha5 Provisioner + v1alpha1 AWSNodeTemplate', () => {
  const provisioners = objectsOf(
    'v1alpha5-repo',
    'clusters/legacy/karpenter/provisioners.yaml',
  );
  const templates = objectsOf(
    'v1alpha5-repo',
    'clusters/legacy/karpenter/nodetemplates.yaml',
  );
  const outputs = convertAll([...provisioners, ...templates]);
  const pool = out(outputs, 'Provisioner/gpu-t4');
  const nodeClass = out(outputs, 'AWSNodeTemplate/gpu');

  it('converts every object to a v1 object its v1 schema accepts', () => {
    expect(outputs.map(o => o.status)).toEqual(Array(4).fill('converted'));
    for (const o of outputs) expect(schemaError(o.value)).toBeUndefined();
    // The converted pools are valid v1 NodePools of Karpenter v1.0.0 too.
    for (const o of outputs.filter(x => x.role === 'pool')) {
      expect(legacySchemaErrors(o.value as never, V1_0_0_NODEPOOL_CRD)).toEqual(
        [],
      );
    }
  });

  it.each(['gpu-t4', 'gpu-a100-mig'])(
    'loses no field of Provisioner %s that has a v1 equivalent',
    name => {
      const input = provisioners.find(p => nameOf(p) === name)!;
      const converted = out(outputs, `Provisioner/${name}`);
      expect(
        lostLeaves(
          input,
          { pool: converted.value, gpu: nodeClass.value },
          converted.findings,
          provisionerLeaf('gpu'),
        ),
      ).toEqual([]);
    },
  );

  it.each(['gpu', 'default'])(
    'loses no field of AWSNodeTemplate %s that has a v1 equivalent',
    name => {
      const input = templates.find(t => nameOf(t) === name)!;
      const converted = out(outputs, `AWSNodeTemplate/${name}`);
      const lost = lostLeaves(
        input,
        { nodeClass: converted.value },
        converted.findings,
        (p, value) => {
          const [, field, key] = p;
          if (field === 'subnetSelector' || field === 'securityGroupSelector') {
            const terms = `${field}Terms`;
            return key === 'aws-ids'
              ? {
                  output: 'nodeClass',
                  path: ['spec', terms],
                  value: String(value)
                    .split(',')
                    .map(id => ({ id: id.trim() })),
                }
              : { output: 'nodeClass', path: ['spec', terms, 0, 'tags', key] };
          }
          if (field === 'amiFamily') {
            return {
              output: 'nodeClass',
              path: ['spec', 'amiSelectorTerms', 0, 'alias'],
              value: `${String(value).toLowerCase()}@latest`,
            };
          }
          return { output: 'nodeClass', path: p };
        },
      );
      expect(lost).toEqual([]);
    },
  );

  it('maps the fields as the upgrade guides say', () => {
    expect(pool.value).toMatchObject({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'gpu-t4', labels: { team: 'ml-platform' } },
      spec: {
        template: {
          metadata: {
            annotations: {
              'karpenter.sh/do-not-disrupt': 'true',
              'example.com/cost-center': '4711',
            },
          },
          spec: {
            nodeClassRef: {
              group: 'karpenter.k8s.aws',
              kind: 'EC2NodeClass',
              name: 'gpu',
            },
            expireAfter: '720h',
          },
        },
        disruption: {
          consolidationPolicy: 'WhenEmpty',
          consolidateAfter: '5m',
        },
        limits: { cpu: '64', 'nvidia.com/gpu': '4' },
        weight: 20,
      },
    });
    expect(
      (pool.value.spec as PlainObject).template as PlainObject,
    ).not.toHaveProperty(
      'metadata.annotations.karpenter\\.sh/do-not-consolidate',
    );
    expect(out(outputs, 'Provisioner/gpu-a100-mig').value.spec).toMatchObject({
      disruption: {
        consolidationPolicy: 'WhenEmptyOrUnderutilized',
        consolidateAfter: '0s',
      },
      template: { spec: { expireAfter: 'Never' } },
    });
    expect(nodeClass.value).toEqual({
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'gpu' },
      spec: {
        amiSelectorTerms: [{ alias: 'al2@latest' }],
        subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'legacy' } }],
        securityGroupSelectorTerms: [
          { id: 'sg-0a1b2c3d' },
          { id: 'sg-0e4f5a6b' },
        ],
        instanceProfile: 'KarpenterNodeInstanceProfile-legacy',
        tags: { team: 'ml-platform', 'cost-center': '4711' },
        blockDeviceMappings: [
          {
            deviceName: '/dev/xvda',
            ebs: {
              volumeSize: '200Gi',
              volumeType: 'gp3',
              encrypted: true,
              deleteOnTermination: true,
            },
          },
        ],
        metadataOptions: {
          httpEndpoint: 'enabled',
          httpProtocolIPv6: 'disabled',
          httpPutResponseHopLimit: 2,
          httpTokens: 'required',
        },
        detailedMonitoring: true,
        kubelet: {
          maxPods: 58,
          systemReserved: { cpu: '500m', memory: '1Gi' },
          evictionHard: { 'memory.available': '5%' },
        },
      },
    });
  });

  it('reports what has no v1 equivalent, with its value', () => {
    expect(pool.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'no-v1-equivalent',
          field: 'spec.kubeletConfiguration.containerRuntime',
          value: 'containerd',
        }),
        expect.objectContaining({
          kind: 'moved',
          field: 'spec.kubeletConfiguration',
        }),
      ]),
    );
    expect(out(outputs, 'Provisioner/gpu-a100-mig').findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'default-kept',
          field: 'spec.template.spec.expireAfter',
        }),
      ]),
    );
  });
});

describe('v1beta1 NodePool + EC2NodeClass beside a hand-written v1 pool', () => {
  const objects = [
    ...objectsOf('v1beta1-repo', 'clusters/prod/gpu/nodepools/gpu-l4.yaml'),
    ...objectsOf('v1beta1-repo', 'clusters/prod/karpenter/gpu-batch.yaml'),
    ...objectsOf('v1beta1-repo', 'clusters/prod/karpenter/default.yaml'),
  ];
  const outputs = convertAll(objects);
  const pool = out(outputs, 'NodePool/gpu-l4');

  it('converts the v1beta1 objects and keeps the v1 ones as they are', () => {
    expect(outputs.map(o => [o.key, o.status])).toEqual([
      ['NodePool/gpu-l4', 'converted'],
      ['EC2NodeClass/gpu', 'converted'],
      ['NodePool/gpu-batch', 'kept'],
      ['NodePool/default', 'kept'],
      ['EC2NodeClass/default', 'kept'],
    ]);
    for (const o of outputs) expect(schemaError(o.value)).toBeUndefined();
    expect(out(outputs, 'NodePool/gpu-batch').value).toBe(objects[2]);
  });

  it('loses no field that has a v1 equivalent; budgets and minValues stay', () => {
    expect(
      lostLeaves(
        objects[0],
        { pool: pool.value, gpu: out(outputs, 'EC2NodeClass/gpu').value },
        pool.findings,
        nodePoolV1beta1Leaf('gpu'),
      ),
    ).toEqual([]);
    expect(
      lostLeaves(
        objects[1],
        { pool: out(outputs, 'EC2NodeClass/gpu').value },
        out(outputs, 'EC2NodeClass/gpu').findings,
        p =>
          p[1] === 'amiFamily'
            ? {
                output: 'pool',
                path: ['spec', 'amiSelectorTerms', 0, 'alias'],
                value: 'al2@latest',
              }
            : { output: 'pool', path: p },
      ),
    ).toEqual([]);
  });

  it('says the node class is shared by pools that want different kubelet settings, and moves nothing', () => {
    expect(out(outputs, 'EC2NodeClass/gpu').value.spec).not.toHaveProperty(
      'kubelet',
    );
    const finding = pool.findings.find(
      f => f.field === 'spec.template.spec.kubelet',
    );
    expect(finding).toMatchObject({
      kind: 'no-v1-equivalent',
      value: { maxPods: 29 },
    });
    expect(finding!.message).toContain(
      'NodePool "gpu-batch": Karpenter\'s defaults',
    );
  });
});

describe('objects that cannot be converted stay as they are', () => {
  const provisioner = (spec: PlainObject): PlainObject => ({
    apiVersion: 'karpenter.sh/v1alpha5',
    kind: 'Provisioner',
    metadata: { name: 'old' },
    spec,
  });

  it('a Provisioner with only an inline provider: reported with the provider', () => {
    const input = provisioner({
      provider: { amiFamily: 'Bottlerocket', tags: { a: 'b' } },
    });
    expect(legacySchemaErrors(input as never)).toEqual([]);
    const [result] = convertAll([input]);
    expect(result.status).toBe('not-converted');
    expect(result.value).toBe(input);
    expect(result.findings).toEqual([
      expect.objectContaining({
        field: 'spec.provider',
        value: { amiFamily: 'Bottlerocket', tags: { a: 'b' } },
      }),
      expect.objectContaining({
        kind: 'not-converted',
        message: expect.stringContaining('spec.providerRef'),
      }),
    ]);
  });

  it('an AWSNodeTemplate with a launch template, and its pool with it', () => {
    const template = {
      apiVersion: 'karpenter.k8s.aws/v1alpha1',
      kind: 'AWSNodeTemplate',
      metadata: { name: 'lt' },
      spec: { launchTemplate: 'my-template', subnetSelector: { a: 'b' } },
    };
    expect(legacySchemaErrors(template)).toEqual([]);
    const results = convertAll([
      provisioner({ providerRef: { name: 'lt' } }),
      template,
    ]);
    expect(results.map(r => r.status)).toEqual([
      'not-converted',
      'not-converted',
    ]);
    expect(results[1].findings[0].message).toContain('spec.launchTemplate');
    expect(results[0].findings[0].message).toContain(
      'node class "lt" is not converted',
    );
  });

  it('a requirement on a label v1beta1 dropped is reported, the others kept', () => {
    const input = provisioner({
      providerRef: { name: 'x' },
      requirements: [
        {
          key: 'karpenter.k8s.aws/instance-pods',
          operator: 'Gt',
          values: ['20'],
        },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
      ],
    });
    const [result] = convertAll([input]);
    expect(result.value).toHaveProperty('spec.template.spec.requirements', [
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
    ]);
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        field: 'spec.requirements.0',
        kind: 'no-v1-equivalent',
      }),
    );
  });
});

describe('Karpenter objects that are neither pools nor node classes', () => {
  it('passes current ones (a pool’s NodeOverlays) in silence and reports unknown ones', () => {
    const outputs = convertAll([
      {
        apiVersion: 'karpenter.sh/v1alpha1',
        kind: 'NodeOverlay',
        metadata: { name: 'gpu-l4-ts4-1gpu' },
        spec: { capacity: { 'nvidia.com/gpu.shared': '4' } },
      },
      {
        apiVersion: 'karpenter.sh/v1alpha9',
        kind: 'Wishlist',
        metadata: { name: 'someday' },
      },
    ]);
    expect(outputs.map(o => [o.key, o.status])).toEqual([
      ['Wishlist/someday', 'not-converted'],
    ]);
    expect(out(outputs, 'Wishlist/someday').findings[0].kind).toBe(
      'not-understood',
    );
  });
});
