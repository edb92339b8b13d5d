import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { processIo, type CliIo } from './io';
import { EXIT_FAILURE, EXIT_INVALID_INPUT } from './exit-codes';
import { UsageError } from './usage-error';
import { migFitUsage, runMigFit } from './commands/mig-fit';
import { planUsage, runPlan } from './commands/plan';
import { renderUsage, runRender } from './commands/render';
import { prUsage, runPr } from './commands/pr';
import { runUpdate, updateUsage } from './commands/update';
import { runValidate, validateUsage } from './commands/validate';
import type { CommandOptions } from './options';

type OptionSpec = NonNullable<ParseArgsConfig['options']>;

const string = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;
const requestOptions: OptionSpec = {
  request: string,
  cluster: string,
  catalog: string,
};

interface Command {
  usage: string;
  options: OptionSpec;
  positionals?: boolean;
  run(
    options: CommandOptions,
    positionals: string[],
    io: CliIo,
  ): Promise<number>;
}

const commands: Record<string, Command> = {
  plan: {
    usage: planUsage,
    options: { ...requestOptions, json: flag },
    run: (options, _, io) => runPlan(options, io),
  },
  render: {
    usage: renderUsage,
    options: { ...requestOptions, out: string, stdout: flag },
    run: (options, _, io) => runRender(options, io),
  },
  'mig fit': {
    usage: migFitUsage,
    options: { gpu: string, profiles: string, json: flag },
    run: (options, _, io) => runMigFit(options, io),
  },
  pr: {
    usage: prUsage,
    options: {
      ...requestOptions,
      repo: string,
      base: string,
      forge: string,
      'api-url': string,
      'cache-dir': string,
      timeout: string,
      draft: flag,
      'dry-run': flag,
      json: flag,
    },
    run: (options, _, io) => runPr(options, io),
  },
  update: {
    usage: updateUsage,
    options: {
      repo: string,
      base: string,
      forge: string,
      'api-url': string,
      cluster: string,
      catalog: string,
      'cache-dir': string,
      timeout: string,
      json: flag,
    },
    run: (options, _, io) => runUpdate(options, io),
  },
  validate: {
    usage: validateUsage,
    options: { cluster: string, 'enable-helm': flag, json: flag },
    positionals: true,
    run: (options, positionals, io) => runValidate(positionals, options, io),
  },
};

const usage = [
  'Usage:',
  ...Object.values(commands).map(c => `  ${c.usage}`),
  '',
  'Exit codes: 0 success, 1 failure (or validate findings), 2 invalid input.',
].join('\n');

function findCommand(
  argv: string[],
): { name: string; rest: string[] } | undefined {
  if (argv[0] === 'mig' && argv[1] === 'fit') {
    return { name: 'mig fit', rest: argv.slice(2) };
  }
  if (argv[0] && argv[0] in commands) {
    return { name: argv[0], rest: argv.slice(1) };
  }
  return undefined;
}

/**
 * Runs `gpu-gitops` with the given arguments and returns the exit code.
 * Every error is reported on stderr; input errors name the field and exit 2.
 */
export async function runCli(
  argv: string[],
  io: CliIo = processIo,
): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    io.stdout(`${usage}\n`);
    return argv.length === 0 ? EXIT_INVALID_INPUT : 0;
  }
  const found = findCommand(argv);
  try {
    if (!found) throw new UsageError(`unknown command "${argv.join(' ')}"`);
    const command = commands[found.name];
    const { values, positionals } = parseArgs({
      args: found.rest,
      options: command.options,
      allowPositionals: command.positionals ?? false,
      strict: true,
    });
    return await command.run(values as CommandOptions, positionals, io);
  } catch (error) {
    return reportError(error, found ? commands[found.name].usage : usage, io);
  }
}

function reportError(error: unknown, commandUsage: string, io: CliIo): number {
  if (isGpuInputError(error)) {
    io.stderr(
      `invalid input:\n${error.issues
        .map(i => `  ${i.path || '(document)'}: ${i.message} [${i.rule}]`)
        .join('\n')}\n`,
    );
    return EXIT_INVALID_INPUT;
  }
  const code = (error as { code?: string })?.code;
  if (
    error instanceof UsageError ||
    (code && code.startsWith('ERR_PARSE_ARGS'))
  ) {
    io.stderr(`${(error as Error).message}\nUsage: ${commandUsage}\n`);
    return EXIT_INVALID_INPUT;
  }
  io.stderr(
    `error: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  return EXIT_FAILURE;
}
