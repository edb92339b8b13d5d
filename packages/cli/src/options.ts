import { UsageError } from './usageError';

export type CommandOptions = Record<string, string | boolean | undefined>;

export function requireOption(options: CommandOptions, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') {
    throw new UsageError(`--${name} is required`);
  }
  return value;
}
