import {
  allowedCapacityTypes,
  requirementAllows,
  requirementsAllowMachine,
} from './karpenterRequirements';

describe('allowedCapacityTypes: a pool capacity types as Karpenter reads them', () => {
  it('no capacity-type requirement allows every capacity type (Karpenter v1 defaults none)', () => {
    expect(allowedCapacityTypes([])).toEqual(['on-demand', 'spot']);
    expect(
      allowedCapacityTypes([
        { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
      ]),
    ).toEqual(['on-demand', 'spot']);
  });

  it.each([
    ['In', ['spot'], ['spot']],
    ['In', ['reserved'], []],
    ['NotIn', ['spot'], ['on-demand']],
    ['Exists', undefined, ['on-demand', 'spot']],
    ['DoesNotExist', undefined, []],
  ] as const)('%s %j allows %j', (operator, values, allowed) => {
    expect(
      allowedCapacityTypes([
        {
          key: 'karpenter.sh/capacity-type',
          operator,
          ...(values ? { values: [...values] } : {}),
        },
      ]),
    ).toEqual(allowed);
  });

  it('several requirements on the key intersect', () => {
    expect(
      allowedCapacityTypes([
        {
          key: 'karpenter.sh/capacity-type',
          operator: 'In',
          values: ['spot', 'on-demand'],
        },
        {
          key: 'karpenter.sh/capacity-type',
          operator: 'NotIn',
          values: ['spot'],
        },
      ]),
    ).toEqual(['on-demand']);
  });
});

describe('requirementAllows', () => {
  const key = 'karpenter.k8s.aws/instance-cpu';
  it.each([
    ['In', ['8'], '8', true],
    ['In', ['8'], undefined, false],
    ['NotIn', ['8'], '8', false],
    ['NotIn', ['8'], undefined, true],
    ['Exists', [], '8', true],
    ['Exists', [], undefined, false],
    ['DoesNotExist', [], undefined, true],
    ['DoesNotExist', [], '8', false],
    ['Gt', ['8'], '8', false],
    ['Gt', ['8'], '16', true],
    ['Lt', ['33'], '32', true],
    ['Lt', ['33'], '48', false],
    ['Lt', ['33'], undefined, false],
    ['Gte', ['8'], '8', true],
    ['Lte', ['8'], '16', false],
  ] as const)('%s %j on %s: %s', (operator, values, value, allowed) => {
    expect(
      requirementAllows({ key, operator, values: [...values] }, value),
    ).toBe(allowed);
  });

  it('leaves requirements on labels the machine does not know to the cluster', () => {
    expect(
      requirementsAllowMachine(
        [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] }],
        { [key]: '8' },
      ),
    ).toBe(true);
    expect(
      requirementsAllowMachine([{ key, operator: 'Gt', values: ['8'] }], {
        [key]: '8',
      }),
    ).toBe(false);
  });

  it('reads an older label name as Karpenter normalizes it', () => {
    const labels = { 'node.kubernetes.io/instance-type': 'g5.xlarge' };
    const requirement = (values: string[]) => [
      {
        key: 'beta.kubernetes.io/instance-type',
        operator: 'In' as const,
        values,
      },
    ];
    expect(requirementsAllowMachine(requirement(['g5.2xlarge']), labels)).toBe(
      false,
    );
    expect(requirementsAllowMachine(requirement(['g5.xlarge']), labels)).toBe(
      true,
    );
  });
});
