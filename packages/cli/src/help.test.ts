import { makeWorkdir, runIn } from './__testUtils__/runInTemp';

const COMMANDS = [
  ['plan'],
  ['render'],
  ['mig', 'fit'],
  ['pr'],
  ['release'],
  ['import'],
  ['update'],
  ['validate'],
];

describe('gpu-gitops --help', () => {
  const dir = makeWorkdir();

  it.each(COMMANDS)(
    '%s --help prints its usage and every option, exit 0, nothing run',
    async (...command) => {
      const run = await runIn(dir, [...command, '--help']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`gpu-gitops ${command.join(' ')}: `);
      expect(run.stdout).toMatch(/^Usage: gpu-gitops /m);
      // Every option the usage line names is explained.
      const usage = /^Usage: (.*)$/m.exec(run.stdout)![1];
      const named = [...usage.matchAll(/--([a-z-]+)/g)].map(m => m[1]);
      expect(named.length).toBeGreaterThan(0);
      for (const option of named) {
        expect(run.stdout).toMatch(
          new RegExp(`^  --${option}\\b[^\\n]*?  +\\S`, 'm'),
        );
      }
    },
  );

  it('takes -h, help <command>, and mig --help alike', async () => {
    const long = await runIn(dir, ['pr', '--help']);
    for (const args of [
      ['pr', '-h'],
      ['help', 'pr'],
      ['pr', '--repo', 'x', '--help'],
    ]) {
      const run = await runIn(dir, args);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(long.stdout);
    }
    const mig = await runIn(dir, ['mig', '--help']);
    expect(mig.code).toBe(0);
    expect(mig.stdout).toContain('gpu-gitops mig fit: ');
  });

  it('lists every command with --help; no arguments is a usage error on stderr', async () => {
    const help = await runIn(dir, ['--help']);
    expect(help.code).toBe(0);
    for (const command of COMMANDS) {
      expect(help.stdout).toContain(`  ${command.join(' ')} `);
    }
    const none = await runIn(dir, []);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(help.stdout);
  });

  it('an unknown command is exit 2 with the list of commands, said once', async () => {
    const run = await runIn(dir, ['deploy']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "deploy"');
    expect(run.stderr.match(/Usage:/g)).toHaveLength(1);
  });
});
