import type { z } from 'zod';
import type { InputIssue } from '../errors';

/**
 * Turns zod issues into our InputIssues: a dotted field path and a short rule
 * id a form or a CLI can act on. Messages never echo the input value (it may
 * be large or sensitive).
 */
export function zodIssuesToInputIssues(
  issues: readonly z.core.$ZodIssue[],
): InputIssue[] {
  const result: InputIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        result.push({
          path: path ? `${path}.${key}` : key,
          rule: 'unknown-key',
          message: `unknown key "${key}" is not allowed here`,
        });
      }
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      result.push(
        ...zodIssuesToInputIssues(
          issue.errors[0].map(inner => ({
            ...inner,
            path: [...issue.path, ...inner.path],
          })),
        ),
      );
      continue;
    }
    result.push({ path, rule: ruleOf(issue), message: messageOf(issue) });
  }
  return result;
}

/** With `reportInput`, a missing field is an issue whose input is undefined. */
function isMissing(issue: z.core.$ZodIssue): boolean {
  return (
    (issue.code === 'invalid_type' || issue.code === 'invalid_value') &&
    'input' in issue &&
    issue.input === undefined
  );
}

function ruleOf(issue: z.core.$ZodIssue): string {
  if (isMissing(issue)) return 'required';
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'int' ? 'integer' : 'type';
    case 'too_small':
      return issue.origin === 'array' && Number(issue.minimum) === 1
        ? 'non-empty'
        : 'min';
    case 'too_big':
      return 'max';
    case 'invalid_value':
      return 'enum';
    case 'invalid_format':
      return 'format';
    case 'not_multiple_of':
      return 'integer';
    case 'custom': {
      const rule = (issue.params as { rule?: unknown } | undefined)?.rule;
      return typeof rule === 'string' ? rule : 'invalid';
    }
    default:
      return 'invalid';
  }
}

function messageOf(issue: z.core.$ZodIssue): string {
  if (isMissing(issue)) return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'int') return 'must be an integer';
      return `must be of type ${issue.expected}`;
    case 'too_small':
      if (issue.origin === 'array') {
        return `must have at least ${issue.minimum} item(s)`;
      }
      if (issue.origin === 'string') {
        return `must be at least ${issue.minimum} character(s) long`;
      }
      return issue.inclusive
        ? `must be at least ${issue.minimum}`
        : `must be greater than ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'array') {
        return `must have at most ${issue.maximum} item(s)`;
      }
      if (issue.origin === 'string') {
        return `must be at most ${issue.maximum} characters long`;
      }
      return issue.inclusive
        ? `must be at most ${issue.maximum}`
        : `must be less than ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(v => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      // zod's own text quotes the regular expression; people need words.
      return 'pattern' in issue &&
        typeof issue.pattern === 'string' &&
        issue.message.includes(issue.pattern)
        ? 'has the wrong format'
        : issue.message;
    default:
      return issue.message;
  }
}
