import { generatedNodeClass } from '../providers/poolProviders';
import { buildEc2NodeClass, karpenterNodeRoleName } from './ec2NodeClass';
import { awsCluster, plainCluster } from './__testUtils__/fixtures';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';

describe('buildEc2NodeClass', () => {
  it('builds a schema-valid alias-based EC2NodeClass discovered by cluster tag', () => {
    const nodeClass = buildEc2NodeClass(awsCluster) as any;
    expect(() => validateAgainstSchema(nodeClass)).not.toThrow();
    expect(nodeClass.metadata.name).toBe('gpu');
    expect(nodeClass.spec.amiSelectorTerms).toEqual([
      { alias: 'al2023@latest' },
    ]);
    expect(nodeClass.spec.role).toBe('KarpenterNodeRole-prod-eu');
    expect(nodeClass.spec.subnetSelectorTerms).toEqual([
      { tags: { 'karpenter.sh/discovery': 'prod-eu' } },
    ]);
    expect(nodeClass.spec.securityGroupSelectorTerms).toEqual([
      { tags: { 'karpenter.sh/discovery': 'prod-eu' } },
    ]);
    expect(nodeClass.spec.blockDeviceMappings[0]).toMatchObject({
      deviceName: '/dev/xvda',
      rootVolume: true,
      ebs: { volumeSize: '200Gi' },
    });
    expect(nodeClass.spec.instanceProfile).toBeUndefined();
  });

  it('is generated only for AWS clusters that ask for it', () => {
    expect(generatedNodeClass(awsCluster)).toEqual(
      buildEc2NodeClass(awsCluster),
    );
    expect(generatedNodeClass(plainCluster)).toBeUndefined();
    expect(
      generatedNodeClass({
        ...awsCluster,
        provider: 'azure-karpenter',
      }),
    ).toBeUndefined();
    expect(karpenterNodeRoleName('dev')).toBe('KarpenterNodeRole-dev');
  });

  it('the schema really rejects a broken EC2NodeClass', () => {
    const nodeClass = buildEc2NodeClass(awsCluster) as any;
    expect(() =>
      validateAgainstSchema({
        ...nodeClass,
        spec: { ...nodeClass.spec, amiSelectorTerms: undefined },
      }),
    ).toThrow(/amiSelectorTerms/);
  });
});
