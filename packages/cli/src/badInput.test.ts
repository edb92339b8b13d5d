import { readdirSync } from 'node:fs';
import path from 'node:path';
import { makeWorkdir, requestYaml, runIn } from './__testUtils__/runInTemp';

// Real git, real kustomize and child processes on a shared, busy CI machine:
// a generous ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

const gpu = (lines: string) => requestYaml(lines);

/**
 * Issue list of bad input: every case exits 2, names the field (or the file)
 * and the rule, and writes nothing.
 */
const cases: [string, string, RegExp][] = [
  ['not YAML', 'kind: GpuRequest\nmetadata: {name: [unclosed\n', /yaml/],
  [
    'a YAML bomb (aliases)',
    'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b]\n',
    /alias/,
  ],
  [
    'over 1 MiB',
    `# ${'x'.repeat(1024 * 1024)}\n${gpu('model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: 4')}`,
    /max-size/,
  ],
  [
    'an unknown key',
    gpu(
      'model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: 4\ncolour: green',
    ),
    /spec\.gpu.*unknown-key|colour/,
  ],
  [
    'a wrong type',
    gpu('model: t4\nsharing: exclusive\nreplicas: "many"\nvramGiB: 4'),
    /spec\.gpu\.replicas/,
  ],
  [
    'zero replicas',
    gpu('model: t4\nsharing: exclusive\nreplicas: 0\nvramGiB: 4'),
    /spec\.gpu\.replicas.*\[min\]/,
  ],
  [
    'negative replicas',
    gpu('model: t4\nsharing: exclusive\nreplicas: -3\nvramGiB: 4'),
    /spec\.gpu\.replicas/,
  ],
  [
    'absurd replicas',
    gpu('model: t4\nsharing: exclusive\nreplicas: 10000000\nvramGiB: 4'),
    /spec\.gpu\.replicas.*\[max\]/,
  ],
  [
    'zero VRAM',
    gpu('model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: 0'),
    /spec\.gpu\.vramGiB/,
  ],
  [
    'negative VRAM',
    gpu('model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: -1'),
    /spec\.gpu\.vramGiB/,
  ],
  [
    'an unknown model',
    gpu('model: rtx9090\nsharing: exclusive\nreplicas: 1\nvramGiB: 4'),
    /spec\.gpu\.model.*unknown-model/,
  ],
  [
    'MIG on a model without MIG',
    gpu('model: t4\nsharing: mig\nreplicas: 1\nvramGiB: 4'),
    /spec\.gpu\.(sharing|model).*mig-unsupported/,
  ],
  [
    'MPS where the device plugin runs the mixed MIG strategy',
    gpu('model: a100-40gb\nsharing: mps\nreplicas: 4\nvramGiB: 8'),
    /spec\.gpu\.sharing.*mps-mig-strategy/,
  ],
  [
    'VRAM larger than the largest GPU',
    gpu('model: auto\nsharing: exclusive\nreplicas: 1\nvramGiB: 900'),
    /spec\.gpu\.vramGiB/,
  ],
  [
    'an uppercase name',
    requestYaml('model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: 4', {
      name: 'LLM',
    }),
    /metadata\.name.*dns1123/,
  ],
  [
    'a name over 63 characters',
    requestYaml('model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: 4', {
      name: 'a'.repeat(64),
    }),
    /metadata\.name/,
  ],
  [
    'a name with a newline',
    requestYaml('model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: 4', {
      name: '"llm\\nx"',
    }),
    /metadata\.name/,
  ],
  [
    'a name with ../',
    requestYaml('model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: 4', {
      name: '"../etc"',
    }),
    /metadata\.name/,
  ],
];

describe('bad input', () => {
  it.each(cases)(
    '%s: exit 2, names the field and rule, writes nothing',
    async (_, text, expected) => {
      const dir = makeWorkdir({ 'req.yaml': text });
      for (const args of [
        ['plan', '--request', 'req.yaml', '--json'],
        ['render', '--request', 'req.yaml', '--out', 'gitops'],
      ]) {
        const run = await runIn(dir, args);
        expect(run.code).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(expected);
      }
      expect(readdirSync(dir)).toEqual(['req.yaml']);
    },
  );

  it('rejects unknown flags and commands with exit 2 and the usage', async () => {
    const dir = makeWorkdir();
    const flag = await runIn(dir, ['plan', '--requets', 'req.yaml']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('Usage: gpu-gitops plan');
    const command = await runIn(dir, ['deploy']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command');
  });

  it('reports a missing request file as invalid input', async () => {
    const dir = makeWorkdir();
    const run = await runIn(dir, [
      'plan',
      '--request',
      path.join(dir, 'nope.yaml'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--request');
  });
});
