import { GpuInputError } from '@gpu-gitops/plugin-gpu-common';

/**
 * Every value that reaches a repository path is checked here first, so a path
 * template can never be steered outside its folder by user input.
 */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Kind of name a layout variable holds. */
export type LayoutNameKind = 'label' | 'subdomain';

export function isDns1123Label(value: string): boolean {
  return value.length <= 63 && DNS1123_LABEL.test(value);
}

export function isDns1123Subdomain(value: string): boolean {
  return value.length <= 253 && DNS1123_SUBDOMAIN.test(value);
}

/** Throws a GpuInputError naming the variable when `value` is not a valid name. */
export function assertLayoutName(
  variable: string,
  value: unknown,
  kind: LayoutNameKind,
): asserts value is string {
  const ok =
    typeof value === 'string' &&
    (kind === 'label' ? isDns1123Label(value) : isDns1123Subdomain(value));
  if (!ok) {
    throw new GpuInputError([
      {
        path: variable,
        rule: kind === 'label' ? 'dns1123-label' : 'dns1123-subdomain',
        message: `${variable} ${JSON.stringify(value)} is not a valid DNS-1123 ${
          kind === 'label' ? 'label' : 'subdomain'
        } (lowercase letters, digits, '-'${kind === 'label' ? '' : ", '.'"}; must start and end with a letter or digit)`,
      },
    ]);
  }
}
