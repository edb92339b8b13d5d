import { parseArgs, type ParseArgsConfig } from 'node:util';
import { processIo, type CliIo } from './io';
import { EXIT_FAILURE, EXIT_INVALID_INPUT, EXIT_OK } from './exitCodes';
import {
  commandHelp,
  overallHelp,
  wantsHelp,
  type CommandHelp,
  type OptionHelp,
} from './help';
import { UsageError } from './usageError';
import { runBootstrap } from './commands/bootstrap';
import { runImport } from './commands/import';
import { runMigFit } from './commands/migFit';
import { runPlan } from './commands/plan';
import { runRender } from './commands/render';
import { runPr } from './commands/pr';
import { runRelease } from './commands/release';
import { runUpdate } from './commands/update';
import { runValidate } from './commands/validate';
import type { CommandOptions } from './options';
import { gpuCommon } from './libraries';
import {
  bootstrapUsage,
  importUsage,
  migFitUsage,
  planUsage,
  prUsage,
  releaseUsage,
  renderUsage,
  updateUsage,
  validateUsage,
} from './usages';

type OptionSpec = NonNullable<ParseArgsConfig['options']>;

const requestFile: OptionHelp = {
  type: 'string',
  value: 'FILE',
  description: 'the GpuRequest YAML (kind: GpuRequest)',
};
const clusterFile: OptionHelp = {
  type: 'string',
  value: 'FILE',
  description:
    "a cluster profile YAML (default: the built-in profile named by the request's spec.cluster)",
};
const catalogFile: OptionHelp = {
  type: 'string',
  value: 'FILE',
  description: 'extends or overrides the GPU catalog (prices, models)',
};
/** `--dir` of the onboarding commands (`onboardingInput.ts`). */
const checkoutDir: OptionHelp = {
  type: 'string',
  value: 'DIR',
  description:
    'a checkout of the GitOps repository, changed in place (instead of --repo)',
};
const json: OptionHelp = {
  type: 'boolean',
  description: 'print JSON instead of text',
};
const requestOptions = {
  request: requestFile,
  cluster: clusterFile,
  catalog: catalogFile,
};
const repositoryOptions: Record<string, OptionHelp> = {
  repo: {
    type: 'string',
    value: 'URL',
    description:
      'the GitOps repository: https:// or file:// URL or a local path, never with credentials',
  },
  base: {
    type: 'string',
    value: 'BRANCH',
    description: 'the base branch (default main)',
  },
  forge: {
    type: 'string',
    value: 'KIND',
    description:
      'local | github | gitlab | gitea (default local: the pushed branch is the pull request)',
  },
  'api-url': {
    type: 'string',
    value: 'URL',
    description:
      'the forge API root (GitHub Enterprise, self-managed GitLab or Gitea)',
  },
  'cache-dir': {
    type: 'string',
    value: 'DIR',
    description: 'where cached clones live',
  },
  timeout: {
    type: 'string',
    value: 'SECONDS',
    description: 'limit of each git command and forge request (default 60)',
  },
};

interface Command extends CommandHelp {
  positionals?: boolean;
  run(
    options: CommandOptions,
    positionals: string[],
    io: CliIo,
  ): Promise<number>;
}

const commandList: Command[] = [
  {
    name: 'plan',
    summary:
      'the plan of a request: pool, instance types, slices or MIG profile, VRAM guarantee, nodes, cost, warnings; with --repo, against the repository',
    usage: planUsage,
    options: {
      ...requestOptions,
      repo: {
        ...repositoryOptions.repo,
        description:
          'plan against the GitOps repository (its pools, ledgers, configs), as pr --dry-run does: https:// or file:// URL or a local path, never with credentials',
      },
      base: repositoryOptions.base,
      forge: {
        ...repositoryOptions.forge,
        description:
          'local | github | gitlab | gitea: whose token (from the environment) reads the repository (default local)',
      },
      'cache-dir': repositoryOptions['cache-dir'],
      timeout: repositoryOptions.timeout,
      json,
    },
    run: (options, _, io) => runPlan(options, io),
  },
  {
    name: 'render',
    summary:
      'writes the change into a GitOps tree in the default layout, or prints the Kubernetes objects',
    usage: renderUsage,
    options: {
      ...requestOptions,
      out: {
        type: 'string',
        value: 'DIR',
        description: 'the GitOps tree to write into',
      },
      stdout: {
        type: 'boolean',
        description: 'print the objects instead of writing files',
      },
    },
    run: (options, _, io) => runRender(options, io),
  },
  {
    name: 'mig fit',
    summary:
      'does this mix of MIG profiles fit one GPU? (exit 2 for a GPU without MIG)',
    usage: migFitUsage,
    options: {
      gpu: {
        type: 'string',
        value: 'MODEL',
        description: 'a catalog GPU with MIG, e.g. a100-40gb',
      },
      profiles: {
        type: 'string',
        value: 'LIST',
        description: 'profile=count pairs, e.g. 3g.20gb=1,2g.10gb=2',
      },
      json,
    },
    run: (options, _, io) => runMigFit(options, io),
  },
  {
    name: 'pr',
    summary:
      'opens (or updates) the pull request of a request on the GitOps repository',
    usage: prUsage,
    options: {
      ...requestOptions,
      ...repositoryOptions,
      draft: {
        type: 'boolean',
        description: 'open the pull request as a draft',
      },
      'dry-run': {
        type: 'boolean',
        description: 'print the diff; push nothing, open nothing',
      },
      json,
    },
    run: (options, _, io) => runPr(options, io),
  },
  {
    name: 'release',
    summary:
      'opens (or updates) the pull request that releases a merged request: its GPUs, its share of its pools, what only it used',
    usage: releaseUsage,
    options: {
      request: {
        ...requestFile,
        description: 'the GpuRequest YAML of the request to release',
      },
      name: {
        type: 'string',
        value: 'NAMESPACE/NAME',
        description: 'the request to release, e.g. ml/chat-assistant',
      },
      cluster: {
        ...clusterFile,
        description:
          "a cluster profile YAML (default: the built-in profile named by the stored request's spec.cluster)",
      },
      catalog: catalogFile,
      ...repositoryOptions,
      'dry-run': {
        type: 'boolean',
        description: 'print the diff; push nothing, open nothing',
      },
      json,
    },
    run: (options, _, io) => runRelease(options, io),
  },
  {
    name: 'import',
    summary:
      "adopts a cluster's existing GPU setup: legacy Karpenter objects converted to v1, GPU pools adopted, request records for their workloads; prints the report",
    usage: importUsage,
    options: {
      cluster: {
        ...clusterFile,
        description:
          'the profile YAML of the cluster to import (its folder clusters/<name>/, ConfigMap names, MIG strategy)',
      },
      'cluster-name': {
        type: 'string',
        value: 'NAME',
        description:
          'the built-in profile of the cluster to import, by name (instead of --cluster)',
      },
      owner: {
        type: 'string',
        value: 'OWNER',
        description:
          'owner of the request records the import writes, e.g. group:default/ml-platform',
      },
      catalog: catalogFile,
      dir: checkoutDir,
      ...repositoryOptions,
      'dry-run': {
        type: 'boolean',
        description:
          'print the report and the diff; write nothing, push nothing, open nothing',
      },
      json,
    },
    run: (options, _, io) => runImport(options, io),
  },
  {
    name: 'bootstrap',
    summary:
      'prepares a cluster for GPU requests, once: the GPU Operator release or what to set in yours, default device-plugin and MIG configs, GPU node class, DRA driver, bin-packing scheduler, Karpenter release',
    usage: bootstrapUsage,
    options: {
      cluster: {
        ...clusterFile,
        description:
          'the profile YAML of the cluster to prepare (provider, versions, ConfigMap names, MIG strategy, DRA)',
      },
      'cluster-name': {
        type: 'string',
        value: 'NAME',
        description:
          'the built-in profile of the cluster to prepare, by name (instead of --cluster)',
      },
      'operator-chart-version': {
        type: 'string',
        value: 'VERSION',
        description: 'the GPU Operator Helm chart version the release pins',
      },
      'bin-packing': {
        type: 'boolean',
        description:
          "run the gpu-binpack scheduler (a second kube-scheduler, MostAllocated on GPUs); needs the profile's kubernetesVersion with its patch",
      },
      dir: checkoutDir,
      ...repositoryOptions,
      'dry-run': {
        type: 'boolean',
        description:
          'print the description and the diff; write nothing, push nothing, open nothing',
      },
      json,
    },
    run: (options, _, io) => runBootstrap(options, io),
  },
  {
    name: 'update',
    summary:
      'brings every open GPU pull request up to date with its base (what the gpu backend does on a schedule)',
    usage: updateUsage,
    options: {
      ...repositoryOptions,
      cluster: {
        ...clusterFile,
        description: 'a cluster profile YAML for every request',
      },
      catalog: catalogFile,
      json,
    },
    run: (options, _, io) => runUpdate(options, io),
  },
  {
    name: 'validate',
    summary:
      'checks a GitOps checkout for review: its files and what the real kustomize builds',
    usage: validateUsage,
    options: {
      cluster: {
        ...clusterFile,
        description:
          'the cluster profile YAML (exact ConfigMap names and MIG strategy)',
      },
      catalog: {
        ...catalogFile,
        description:
          'extends or overrides the GPU catalog (instance types and flavors: GPUs per node)',
      },
      'enable-helm': {
        type: 'boolean',
        description:
          'inflate helmCharts (needs helm and the chart repositories)',
      },
      json,
    },
    positionals: true,
    run: (options, positionals, io) => runValidate(positionals, options, io),
  },
];

const commands = new Map(commandList.map(c => [c.name, c]));

const usage = overallHelp(commandList);

/** parseArgs' option spec of a command (the help text stays here). */
function parseSpec(command: Command): OptionSpec {
  return Object.fromEntries(
    Object.entries(command.options).map(([name, option]) => [
      name,
      { type: option.type },
    ]),
  );
}

function findCommand(
  argv: string[],
): { name: string; rest: string[] } | undefined {
  // `mig` has one subcommand: `mig --help` and `mig` alone mean `mig fit`.
  if (
    argv[0] === 'mig' &&
    (argv[1] === 'fit' || argv[1] === undefined || wantsHelp([argv[1]]))
  ) {
    return { name: 'mig fit', rest: argv.slice(argv[1] === 'fit' ? 2 : 1) };
  }
  if (argv[0] && commands.has(argv[0])) {
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
  if (argv.length === 0) {
    io.stderr(usage);
    return EXIT_INVALID_INPUT;
  }
  if (wantsHelp([argv[0]])) {
    io.stdout(usage);
    return EXIT_OK;
  }
  // `help <command>` as well as `<command> --help`.
  const helpFor = argv[0] === 'help' ? argv.slice(1) : undefined;
  if (helpFor?.length === 0) {
    io.stdout(usage);
    return EXIT_OK;
  }
  const found = findCommand(helpFor ?? argv);
  try {
    if (!found) {
      throw new UsageError(`unknown command "${(helpFor ?? argv).join(' ')}"`);
    }
    const command = commands.get(found.name)!;
    if (helpFor || wantsHelp(found.rest)) {
      io.stdout(commandHelp(command));
      return EXIT_OK;
    }
    const { values, positionals } = parseArgs({
      args: found.rest,
      options: parseSpec(command),
      allowPositionals: command.positionals ?? false,
      strict: true,
    });
    return await command.run(values as CommandOptions, positionals, io);
  } catch (error) {
    return reportError(
      error,
      found ? `Usage: ${commands.get(found.name)!.usage}\n` : usage,
      io,
    );
  }
}

function reportError(error: unknown, commandUsage: string, io: CliIo): number {
  if (gpuCommon.isGpuInputError(error)) {
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
    io.stderr(`${(error as Error).message}\n${commandUsage}`);
    return EXIT_INVALID_INPUT;
  }
  io.stderr(
    `error: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  return EXIT_FAILURE;
}
