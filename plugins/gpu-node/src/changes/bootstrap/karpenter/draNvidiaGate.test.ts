/**
 * Karpenter's AWS DRA gate (`draNVIDIAGPU`) in the bootstrap: written in
 * the bootstrap's own release as the cluster profile's
 * `dra.karpenterNvidiaGate` says, never edited in a release the repository
 * declares, where the notes say which value to set and where.
 */
import { parse } from 'yaml';
import {
  resolveClusterProfile,
  type ClusterProfileOverride,
} from '@gpu-gitops/plugin-gpu-common';
import { MemoryRepoTree } from '../../../repo/tree';
import { writes } from '../../__testUtils__/writes';
import { writeChangeSet } from '../../stagedTree';
import { buildBootstrapChangeSet } from '../bootstrapChangeSet';

const OPTIONS = { operatorChartVersion: 'v26.7.0', binPacking: false };
const VALUES = 'clusters/prod/karpenter-controller/values.yaml';
const GATE_ON = {
  karpenterVersion: '1.15.1',
  dra: { karpenterNvidiaGate: true },
};

const profile = (override: ClusterProfileOverride = {}) =>
  resolveClusterProfile({
    name: 'prod',
    karpenterVersion: '1.14.1',
    ...override,
  });

async function bootstrap(
  files: Record<string, string>,
  override: ClusterProfileOverride = {},
) {
  const tree = new MemoryRepoTree(files);
  const changeSet = await buildBootstrapChangeSet(
    tree,
    profile(override),
    OPTIONS,
  );
  await writeChangeSet(tree, changeSet);
  return { tree, changeSet };
}

const karpenterNotes = (notes: string[]) =>
  notes.filter(n => /Karpenter/.test(n) && !/inflates a Helm chart/.test(n));

/** A Flux HelmRelease of Karpenter whose `spec.values.settings` are `settings` (YAML lines, 6 spaces in). */
const fluxKarpenter = (settings: string[]) =>
  [
    'apiVersion: helm.toolkit.fluxcd.io/v2',
    'kind: HelmRelease',
    'metadata:',
    '  name: karpenter',
    '  namespace: kube-system',
    'spec:',
    '  interval: 10m',
    '  chart:',
    '    spec:',
    '      chart: karpenter',
    '      version: 1.15.1',
    '      sourceRef: { kind: HelmRepository, name: karpenter }',
    '  values:',
    '    settings:',
    '      clusterName: prod-eks',
    '      featureGates: { nodeOverlay: true }',
    ...settings.map(line => `      ${line}`),
    '',
  ].join('\n');
const FLUX_FILE = 'infrastructure/karpenter.yaml';

describe('the bootstrap’s own Karpenter release', () => {
  it('turns the DRA gate on where the profile says dra.karpenterNvidiaGate: true, and says so', async () => {
    const { changeSet } = await bootstrap({}, GATE_ON);
    const values = parse(
      writes(changeSet).find(c => c.path === VALUES)!.content,
    );
    expect(values.settings.awsFeatureGates).toEqual({ draNVIDIAGPU: true });
    expect(karpenterNotes(changeSet.notes)[0]).toContain(
      "with `settings.featureGates.nodeOverlay: true` and `settings.awsFeatureGates.draNVIDIAGPU: true` (the profile's `dra.karpenterNvidiaGate`)",
    );
  });

  it('writes no DRA gate into a Karpenter that has none (before 1.15), and says to upgrade', async () => {
    const { changeSet } = await bootstrap(
      {},
      { karpenterVersion: '1.14.1', dra: { karpenterNvidiaGate: true } },
    );
    const values = parse(
      writes(changeSet).find(c => c.path === VALUES)!.content,
    );
    expect(values.settings.awsFeatureGates).toBeUndefined();
    expect(karpenterNotes(changeSet.notes)).toContain(
      'Karpenter 1.14.1 has no DRA gate DRANVIDIAGPU (it came in v1.15.0), so the bootstrap writes none although `dra.karpenterNvidiaGate` is `true`: upgrade Karpenter (profile `karpenterVersion`) and run the bootstrap again.',
    );
  });

  it('writes no DRA gate where the profile states none', async () => {
    const { changeSet } = await bootstrap({});
    const values = parse(
      writes(changeSet).find(c => c.path === VALUES)!.content,
    );
    expect(values.settings.awsFeatureGates).toBeUndefined();
  });

  it('follows the profile when it turns the gate on later, keeping what the team filled in', async () => {
    const { tree } = await bootstrap({});
    const values = parse((await tree.readFile(VALUES))!);
    expect(values.settings.clusterName).toBe('');
    await tree.writeFile(
      VALUES,
      (await tree.readFile(VALUES))!.replace(
        /clusterName: .*/,
        'clusterName: prod-eks',
      ),
    );
    const changeSet = await buildBootstrapChangeSet(
      tree,
      profile(GATE_ON),
      OPTIONS,
    );
    const after = parse(
      writes(changeSet).find(c => c.path === VALUES)!.content,
    );
    expect(after.settings.clusterName).toBe('prod-eks');
    expect(after.settings.awsFeatureGates).toEqual({ draNVIDIAGPU: true });
  });
});

describe('a Karpenter release the repository declares', () => {
  it('without the DRA gate: never edited, and the notes say which value to set where', async () => {
    const release = fluxKarpenter([]);
    const { tree, changeSet } = await bootstrap(
      { [FLUX_FILE]: release },
      GATE_ON,
    );
    expect(await tree.readFile(FLUX_FILE)).toBe(release);
    expect(changeSet.changes.map(c => c.path)).not.toContain(VALUES);
    expect(karpenterNotes(changeSet.notes)).toEqual([
      expect.stringContaining(
        "Nothing sets its DRA gate DRANVIDIAGPU, and the chart's default is off. **To do**: set `settings.awsFeatureGates.draNVIDIAGPU: true` in `spec.values` of HelmRelease `kube-system/karpenter` in `infrastructure/karpenter.yaml`: `dra.karpenterNvidiaGate` of the cluster profile `prod` is `true`",
      ),
    ]);
  });

  it.each([
    [
      'awsFeatureGates.draNVIDIAGPU',
      ['awsFeatureGates: { draNVIDIAGPU: true }'],
    ],
    ['enableDRA (both drivers)', ['enableDRA: true']],
  ])('with the gate on through %s: says it is on', async (_label, settings) => {
    const { changeSet } = await bootstrap(
      { [FLUX_FILE]: fluxKarpenter(settings) },
      GATE_ON,
    );
    const [note] = karpenterNotes(changeSet.notes);
    expect(note).toContain(
      'Its DRA gate DRANVIDIAGPU is on (`spec.values` of HelmRelease `kube-system/karpenter`',
    );
    expect(note).not.toContain('**To do**');
  });

  it('with the gate off: says where it is off and what to set', async () => {
    const { changeSet } = await bootstrap(
      {
        [FLUX_FILE]: fluxKarpenter([
          'awsFeatureGates: { draNVIDIAGPU: false }',
        ]),
      },
      GATE_ON,
    );
    expect(karpenterNotes(changeSet.notes)[0]).toMatch(
      /Its DRA gate DRANVIDIAGPU is off \(`settings\.awsFeatureGates\.draNVIDIAGPU` in `spec\.values` of HelmRelease `kube-system\/karpenter` in `infrastructure\/karpenter\.yaml`\)\. \*\*To do\*\*: set `settings\.awsFeatureGates\.draNVIDIAGPU: true`/,
    );
  });

  it('with the gate on while the profile says false: the profile disagrees', async () => {
    const { changeSet } = await bootstrap(
      {
        [FLUX_FILE]: fluxKarpenter(['awsFeatureGates: { draNVIDIAGPU: true }']),
      },
      { karpenterVersion: '1.15.1', dra: { karpenterNvidiaGate: false } },
    );
    expect(karpenterNotes(changeSet.notes)[0]).toContain(
      "**The cluster profile disagrees**: this release turns Karpenter's DRA gate DRANVIDIAGPU on",
    );
  });

  it('says nothing of the DRA gate where the profile states no dra settings', async () => {
    const { changeSet } = await bootstrap({ [FLUX_FILE]: fluxKarpenter([]) });
    expect(karpenterNotes(changeSet.notes).join('\n')).not.toContain('DRA');
  });
});
