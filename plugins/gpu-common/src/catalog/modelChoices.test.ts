import type { GpuCatalog } from './types';
import { builtinCatalog } from './builtin';
import { gpuModelChoices } from './modelChoices';

describe('gpuModelChoices', () => {
  it('labels each model with memory, MIG support and the cheapest price per GPU-hour', () => {
    const catalog: GpuCatalog = {
      models: [
        {
          ...builtinCatalog.models.find(m => m.id === 'a100-40gb')!,
          memoryMiB: 40960,
        },
        {
          ...builtinCatalog.models.find(m => m.id === 'l4')!,
          memoryMiB: 22888,
        },
      ],
      instanceTypes: [
        {
          name: 'big',
          family: 'p',
          provider: 'aws',
          gpuModel: 'a100-40gb',
          gpusPerNode: 8,
          gpuMemoryMiB: 40960,
          vcpu: 96,
          memoryMiB: 1,
          onDemandUsdPerHour: 24,
        },
        {
          name: 'small',
          family: 'p',
          provider: 'aws',
          gpuModel: 'a100-40gb',
          gpusPerNode: 1,
          gpuMemoryMiB: 40960,
          vcpu: 8,
          memoryMiB: 1,
          onDemandUsdPerHour: 4,
        },
        {
          name: 'owned',
          family: 'x',
          provider: 'static',
          gpuModel: 'l4',
          gpusPerNode: 1,
          gpuMemoryMiB: 22888,
          vcpu: 8,
          memoryMiB: 1,
          onDemandUsdPerHour: 0,
        },
      ],
    };
    expect(gpuModelChoices(catalog, 'aws')).toEqual([
      {
        id: 'a100-40gb',
        label: expect.stringMatching(/ — 40 GiB, MIG, from \$3\.00\/GPU-hour$/),
      },
      { id: 'l4', label: 'NVIDIA L4 — 22.3 GiB, no MIG, price unknown' },
    ]);
  });

  it("names no price without a cluster's machines, so the template's Review step never contradicts the GPU step", () => {
    const anyCluster = gpuModelChoices(builtinCatalog);
    const v100 = (choices: typeof anyCluster) =>
      choices.find(c => c.id === 'v100-32gb')!.label;
    expect(v100(anyCluster)).toBe('NVIDIA Tesla V100 32GB — 32 GiB, no MIG');
    // The same model costs differently per provider: each cluster's form names its own.
    expect(v100(gpuModelChoices(builtinCatalog, 'aws'))).toMatch(
      /from \$3\.90\/GPU-hour$/,
    );
    expect(v100(gpuModelChoices(builtinCatalog, 'azure'))).toMatch(
      /from \$2\.75\/GPU-hour$/,
    );
    for (const machines of ['aws', 'azure'] as const) {
      gpuModelChoices(builtinCatalog, machines).forEach((choice, i) => {
        expect(anyCluster[i].label).not.toContain('$');
        expect(choice.label.startsWith(`${anyCluster[i].label}, `)).toBe(true);
      });
    }
  });

  it('offers every model of the built-in catalog', () => {
    expect(gpuModelChoices(builtinCatalog).map(c => c.id)).toEqual(
      builtinCatalog.models.map(m => m.id),
    );
  });
});
