import type { PlainObject } from '../../repo/yamlObjects';
import {
  AZURE_V0_6_3_CRDS,
  legacySchemaErrors,
} from '../__testUtils__/legacyCrdSchemas';
import { convertKarpenterObjects } from './convertKarpenterObjects';
import { v1NodeClassRef } from './nodeClassRef';

const AKS = { group: 'karpenter.azure.com', kind: 'AKSNodeClass' };
const EC2 = { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' };

describe('a legacy node class reference in v1', () => {
  it('takes its group from its apiVersion and its kind from that group’s provider', () => {
    expect(
      v1NodeClassRef(
        { apiVersion: 'karpenter.azure.com/v1alpha2', name: 'gpu' },
        { provider: EC2 },
      ),
    ).toEqual({ ref: { ...AKS, name: 'gpu' } });
  });

  it('takes its group from its kind’s provider', () => {
    expect(
      v1NodeClassRef({ kind: 'AKSNodeClass', name: 'gpu' }, { provider: EC2 }),
    ).toEqual({ ref: { ...AKS, name: 'gpu' } });
  });

  it('takes the class of that name the cluster defines before the profile’s provider', () => {
    expect(
      v1NodeClassRef(
        { name: 'default' },
        { defined: new Map([['default', [AKS]]]), provider: EC2 },
      ),
    ).toEqual({ ref: { ...AKS, name: 'default' } });
  });

  it('refuses a bare name two kinds of class share, unless one is the provider’s', () => {
    const defined = new Map([['default', [AKS, EC2]]]);
    expect(v1NodeClassRef({ name: 'default' }, { defined })).toEqual({
      refused: expect.stringMatching(
        /the cluster defines AKSNodeClass \(karpenter\.azure\.com\) and EC2NodeClass \(karpenter\.k8s\.aws\) of that name/,
      ),
    });
    expect(
      v1NodeClassRef({ name: 'default' }, { defined, provider: AKS }),
    ).toEqual({ ref: { ...AKS, name: 'default' } });
  });
});

describe('a v1beta1 NodePool on AKS with kubelet settings', () => {
  const pool: PlainObject = {
    apiVersion: 'karpenter.sh/v1beta1',
    kind: 'NodePool',
    metadata: { name: 'gpu' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { name: 'gpu' },
          requirements: [
            {
              key: 'karpenter.azure.com/sku-family',
              operator: 'In',
              values: ['N'],
            },
          ],
          kubelet: { maxPods: 30 },
        },
      },
    },
  };
  const nodeClass: PlainObject = {
    apiVersion: 'karpenter.azure.com/v1alpha2',
    kind: 'AKSNodeClass',
    metadata: { name: 'gpu' },
    spec: { imageFamily: 'Ubuntu2204' },
  };

  it('leaves the AKSNodeClass as it is and reports the settings with their value', () => {
    expect(
      legacySchemaErrors(pool as never, AZURE_V0_6_3_CRDS.NodePool),
    ).toEqual([]);
    const [converted, kept] = convertKarpenterObjects([
      { key: 'pool', value: pool },
      { key: 'class', value: nodeClass },
    ]);
    expect(kept).toMatchObject({ status: 'kept', value: nodeClass });
    expect(converted.findings).toContainEqual(
      expect.objectContaining({
        kind: 'no-v1-equivalent',
        field: 'spec.template.spec.kubelet',
        value: { maxPods: 30 },
        message: expect.stringMatching(
          /AKSNodeClass "gpu" .* has its own kubelet fields/,
        ),
      }),
    );
  });
});
