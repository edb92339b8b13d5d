import { parseGpuRequest } from './schema';
import { describeIssue, fieldLabel } from './fieldLabels';
import { GpuInputError } from '../errors';

describe('request field labels', () => {
  it('names each field the way the request form shows it', () => {
    expect(fieldLabel('spec.gpu.vramGiB')).toBe('GPU memory per replica');
    expect(fieldLabel('spec.gpu.replicas')).toBe('Replicas');
    expect(fieldLabel('spec.workload.existing.container')).toBe('Container');
    // A deeper path takes its field's label; the document has none.
    expect(fieldLabel('spec.capacityTypes.1')).toBe('Capacity types');
    expect(fieldLabel('')).toBeUndefined();
  });

  it('joins a sentence of its own with a colon', () => {
    expect(
      describeIssue({
        path: 'spec.gpu.sharing',
        rule: 'mps-mig-strategy',
        message: 'cluster dev cannot run MPS: …',
      }),
    ).toBe('Sharing mode: cluster dev cannot run MPS: …');
    expect(
      describeIssue({ path: '', rule: 'x', message: 'Whole request.' }),
    ).toBe('Whole request.');
  });

  it('turns a schema refusal into the form’s words, keeping path and rule beside them', () => {
    let error: unknown;
    try {
      parseGpuRequest({
        kind: 'GpuRequest',
        metadata: { name: 'Chat_Bot', namespace: 'ml' },
        spec: {
          owner: 'group:default/ml-platform',
          gpu: { model: 't4', sharing: 'exclusive', vramGiB: 0 },
          workload: { image: 'ghcr.io/acme/chat:1' },
        },
      });
    } catch (e) {
      error = e;
    }
    const { issues } = error as GpuInputError;
    expect(issues.map(i => [i.path, i.rule])).toEqual([
      ['metadata.name', 'dns1123-label'],
      ['spec.gpu.replicas', 'required'],
      ['spec.gpu.vramGiB', 'min'],
    ]);
    expect(issues.map(describeIssue)).toEqual([
      'Name must be a DNS-1123 label: lowercase letters, digits and "-", starting and ending with a letter or digit',
      'Replicas is required',
      'GPU memory per replica must be greater than 0',
    ]);
  });
});
