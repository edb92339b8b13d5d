import { builtinCatalog } from '../catalog/builtin';
import {
  excludesGpuMachines,
  gpuModelOfRequirements,
  requiresGpuMachines,
} from './gpuMachineLabels';

const req = (key: string, operator: string, values?: string[]) => ({
  key,
  operator,
  ...(values ? { values } : {}),
});

describe('a NodePool kept on GPU machines, in its own provider’s labels', () => {
  it.each([
    ['AWS GPU count', req('karpenter.k8s.aws/instance-gpu-count', 'Gt', ['0'])],
    [
      'AWS GPU name',
      req('karpenter.k8s.aws/instance-gpu-name', 'In', ['a10g']),
    ],
    [
      'AWS GPU family',
      req('karpenter.k8s.aws/instance-family', 'In', ['g5', 'p4d']),
    ],
    ['AWS category', req('karpenter.k8s.aws/instance-category', 'In', ['g'])],
    [
      'AWS instance type',
      req('node.kubernetes.io/instance-type', 'In', ['g6e.xlarge']),
    ],
    ['Azure N family', req('karpenter.azure.com/sku-family', 'In', ['N'])],
    [
      'Azure NC sub-family',
      req('karpenter.azure.com/sku-family', 'In', ['NC']),
    ],
    ['Azure GPU count', req('karpenter.azure.com/sku-gpu-count', 'Exists')],
    ['Azure GPU name', req('karpenter.azure.com/sku-gpu-name', 'In', ['T4'])],
    [
      'Azure size',
      req('node.kubernetes.io/instance-type', 'In', ['Standard_NC4as_T4_v3']),
    ],
    [
      'Azure sku name',
      req('karpenter.azure.com/sku-name', 'In', ['Standard_ND96asr_v4']),
    ],
  ])('%s', (_what, requirement) => {
    expect(requiresGpuMachines([requirement], builtinCatalog)).toBe(true);
  });

  it.each([
    [
      'AWS general family',
      req('karpenter.k8s.aws/instance-family', 'In', ['m5']),
    ],
    [
      'AWS AMD GPU family',
      req('karpenter.k8s.aws/instance-family', 'In', ['g4ad']),
    ],
    [
      'a mixed family list',
      req('karpenter.k8s.aws/instance-family', 'In', ['g5', 'm5']),
    ],
    ['no GPU', req('karpenter.k8s.aws/instance-gpu-count', 'DoesNotExist')],
    ['zero GPUs', req('karpenter.azure.com/sku-gpu-count', 'In', ['0'])],
    [
      'Azure D family (upstream general-purpose example)',
      req('karpenter.azure.com/sku-family', 'In', ['D']),
    ],
    [
      'GPU sizes excluded',
      req('node.kubernetes.io/instance-type', 'NotIn', [
        'Standard_NC4as_T4_v3',
      ]),
    ],
    ['architecture', req('kubernetes.io/arch', 'In', ['amd64'])],
  ])('not: %s', (_what, requirement) => {
    expect(requiresGpuMachines([requirement], builtinCatalog)).toBe(false);
  });
});

describe('the model of a pool’s GPU machines', () => {
  it('from an Azure size, or the Azure GPU name when it names one model', () => {
    expect(
      gpuModelOfRequirements(
        [
          req('node.kubernetes.io/instance-type', 'In', [
            'Standard_NC4as_T4_v3',
          ]),
        ],
        builtinCatalog,
      ),
    ).toBe('t4');
    expect(
      gpuModelOfRequirements(
        [req('karpenter.azure.com/sku-gpu-name', 'In', ['T4'])],
        builtinCatalog,
      ),
    ).toBe('t4');
    // A100 sizes come with 40 and 80 GB: no single model.
    expect(
      gpuModelOfRequirements(
        [req('karpenter.azure.com/sku-gpu-name', 'In', ['A100'])],
        builtinCatalog,
      ),
    ).toBeUndefined();
  });

  it('from the AWS GPU name', () => {
    expect(
      gpuModelOfRequirements(
        [req('karpenter.k8s.aws/instance-gpu-name', 'In', ['a10g'])],
        builtinCatalog,
      ),
    ).toBe('a10g');
  });
});

describe('a NodePool kept off GPU machines, in its own provider’s labels', () => {
  it.each([
    ['Azure D family', req('karpenter.azure.com/sku-family', 'In', ['D'])],
    [
      'AWS general-purpose categories',
      req('karpenter.k8s.aws/instance-category', 'In', ['c', 'm', 'r']),
    ],
    [
      'AWS CPU instance types',
      req('node.kubernetes.io/instance-type', 'In', ['m5.large', 'c6i.xlarge']),
    ],
    ['no AWS GPU', req('karpenter.k8s.aws/instance-gpu-count', 'DoesNotExist')],
    ['zero Azure GPUs', req('karpenter.azure.com/sku-gpu-count', 'In', ['0'])],
  ])('%s', (_what, requirement) => {
    expect(excludesGpuMachines([requirement])).toBe(true);
  });

  it.each([
    ['Azure N family', [req('karpenter.azure.com/sku-family', 'In', ['N'])]],
    [
      'a GPU category among others',
      [req('karpenter.k8s.aws/instance-category', 'In', ['c', 'g'])],
    ],
    [
      'no requirement on machines',
      [req('kubernetes.io/arch', 'In', ['amd64'])],
    ],
    [
      'a label no provider names machines by',
      [req('karpenter.azure.com/sku-cpu', 'In', ['4'])],
    ],
    ['not a requirement list', 'D'],
  ])('not %s', (_what, requirements) => {
    expect(excludesGpuMachines(requirements)).toBe(false);
  });
});
