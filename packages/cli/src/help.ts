/**
 * `--help` for every command: what it does, its usage line, and each option
 * with what it takes. Generated from the command table (main.ts), so an
 * option cannot exist without its description.
 */

/** One option of a command, as parseArgs takes it plus what `--help` says of it. */
export interface OptionHelp {
  type: 'string' | 'boolean';
  /** What the value looks like in the help, e.g. `FILE`; none for flags. */
  value?: string;
  description: string;
}

export interface CommandHelp {
  name: string;
  summary: string;
  usage: string;
  options: Record<string, OptionHelp>;
}

/** True when the arguments ask for help instead of a run. */
export function wantsHelp(args: string[]): boolean {
  return args.some(arg => arg === '--help' || arg === '-h');
}

export function commandHelp(command: CommandHelp): string {
  const rows = Object.entries(command.options).map(([name, option]) => [
    `--${name}${option.value ? ` ${option.value}` : ''}`,
    option.description,
  ]);
  rows.push(['--help, -h', 'this help']);
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    `gpu-gitops ${command.name}: ${command.summary}`,
    '',
    `Usage: ${command.usage}`,
    '',
    'Options:',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    '',
  ].join('\n');
}

export function overallHelp(commands: CommandHelp[]): string {
  const width = Math.max(...commands.map(c => c.name.length));
  return [
    'Usage: gpu-gitops <command> [options]   (gpu-gitops <command> --help for its options)',
    '',
    'Commands:',
    ...commands.map(c => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Exit codes: 0 success, 1 failure (or validate findings), 2 invalid input.',
    '',
  ].join('\n');
}
