import { builtinCatalog } from './builtin';
import { findInstanceType, findModel, instanceTypesForModel } from './lookup';

describe('catalog lookups', () => {
  it('finds models by id', () => {
    expect(findModel(builtinCatalog, 'a100-40gb')?.memoryMiB).toBe(40960);
    expect(findModel(builtinCatalog, 'A100-40GB')).toBeUndefined();
    expect(findModel(builtinCatalog, 'k80')).toBeUndefined();
  });

  it('finds instance types by name', () => {
    expect(findInstanceType(builtinCatalog, 'g5.2xlarge')).toMatchObject({
      gpuModel: 'a10g',
      gpusPerNode: 1,
      vcpu: 8,
      memoryMiB: 32 * 1024,
    });
    expect(findInstanceType(builtinCatalog, 'g5.3xlarge')).toBeUndefined();
  });

  it('lists the instance types of a model', () => {
    expect(
      instanceTypesForModel(builtinCatalog, 'a100-40gb').map(t => t.name),
    ).toEqual([
      'p4d.24xlarge',
      'Standard_ND96asr_v4',
      'a2-highgpu-1g',
      'a2-highgpu-2g',
      'a2-highgpu-4g',
      'a2-highgpu-8g',
    ]);
    expect(
      instanceTypesForModel(builtinCatalog, 'h200').map(t => t.name),
    ).toEqual(['p5e.48xlarge', 'p5en.48xlarge']);
    // H100 NVL on Azure only (NC H100 v5); A30 on-prem only.
    expect(
      instanceTypesForModel(builtinCatalog, 'h100-nvl').map(t => t.provider),
    ).toEqual(['azure', 'azure']);
    expect(instanceTypesForModel(builtinCatalog, 'a30')).toEqual([]);
  });

  it('has an instance type for every model sold on AWS and a model for every instance type', () => {
    for (const t of builtinCatalog.instanceTypes) {
      expect(findModel(builtinCatalog, t.gpuModel)).toBeDefined();
    }
    for (const m of builtinCatalog.models) {
      if (m.id === 'a30') continue;
      expect(
        instanceTypesForModel(builtinCatalog, m.id).length,
      ).toBeGreaterThan(0);
    }
  });
});
