import { parseLedger, type LedgerEntry } from '@gpu-gitops/plugin-gpu-common';
import { toYaml } from './canonical';
import { asAddedObject, removeAddedOverlays } from './addedOverlays';
import { YamlFile } from './yamlFile';

const DOMAIN = 'gpu.backstage.io';

/** The team's pool as the import adopted it: one tenant. */
const POOL = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: nvidia-gpu
  annotations:
    gpu.backstage.io/requests: ml/whisper=2
spec:
  template:
    spec:
      requirements: []
`;

const overlay = {
  apiVersion: 'karpenter.sh/v1alpha1',
  kind: 'NodeOverlay',
  metadata: {
    name: 'nvidia-gpu-1gpu',
    labels: {
      'app.kubernetes.io/managed-by': 'backstage-gpu-gitops',
      [`${DOMAIN}/pool`]: 'nvidia-gpu',
    },
  },
  spec: {
    requirements: [
      { key: 'karpenter.sh/nodepool', operator: 'In', values: ['nvidia-gpu'] },
    ],
    capacity: { 'nvidia.com/gpu': '4' },
  },
};

/** The pool file once a request added its overlay over `ledgerBefore`. */
function withAddedOverlay(ledgerBefore: string, object: unknown = overlay) {
  const text = `${POOL}---\n${toYaml(
    asAddedObject(object as typeof overlay, ledgerBefore, DOMAIN),
  )}`;
  return YamlFile.parse('clusters/prod/karpenter/nvidia-gpu.yaml', text);
}

const ledger = (text: string): LedgerEntry[] => parseLedger(text)!;

const overlaysLeft = (file: YamlFile) =>
  file.values().filter(v => (v as { kind?: string }).kind === 'NodeOverlay')
    .length;

describe('NodeOverlays added beside a pool the product did not write', () => {
  it('record the ledger they were added over', () => {
    const added = asAddedObject(overlay, 'ml/whisper=2', DOMAIN);
    expect(added.metadata.annotations).toEqual({
      'gpu.backstage.io/ledger-before': 'ml/whisper=2',
    });
    expect(added.metadata.labels).toEqual(overlay.metadata.labels);
  });

  it('go once the ledger is back within that record, and the file is the pool as it was', () => {
    const file = withAddedOverlay('ml/whisper=2');
    removeAddedOverlays(file, 'nvidia-gpu', ledger('ml/whisper=2'), DOMAIN);
    expect(overlaysLeft(file)).toBe(0);
    expect(file.toString()).toBe(POOL);
  });

  it.each([
    ['another request still holds the pool', 'ml/embed=1, ml/whisper=2'],
    ['a tenant grew on them', 'ml/whisper=3'],
    ['a tenant asks for more slices per replica', 'ml/whisper=2x2'],
  ])('stay while %s', (_, after) => {
    const file = withAddedOverlay('ml/whisper=2');
    removeAddedOverlays(file, 'nvidia-gpu', ledger(after), DOMAIN);
    expect(overlaysLeft(file)).toBe(1);
  });

  it('on a pool that had no ledger, go when no request holds it', () => {
    const file = withAddedOverlay('');
    removeAddedOverlays(file, 'nvidia-gpu', [], DOMAIN);
    expect(overlaysLeft(file)).toBe(0);
  });

  it('stay when their record is not a ledger (edited by hand), or they belong to another pool', () => {
    const edited = withAddedOverlay('whisper, two replicas');
    removeAddedOverlays(edited, 'nvidia-gpu', [], DOMAIN);
    expect(overlaysLeft(edited)).toBe(1);
    const other = withAddedOverlay('', {
      ...overlay,
      metadata: { ...overlay.metadata, labels: {} },
    });
    removeAddedOverlays(other, 'nvidia-gpu', [], DOMAIN);
    expect(overlaysLeft(other)).toBe(1);
  });
});
