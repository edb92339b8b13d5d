/**
 * Runs one of the product's software templates for an agent action, as the
 * caller: the scaffolder checks the caller's permissions (reading the
 * template, creating the task, running its actions) exactly as for the form,
 * and the GPU actions check the owner's policy and quota as for the form.
 * The agent gets the template's output once the task has ended.
 */
import type {
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  InputError,
  NotAllowedError,
  ServiceUnavailableError,
} from '@backstage/errors';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { taskCreatePermission } from '@backstage/plugin-scaffolder-common/alpha';
import type { ScaffolderService } from '@backstage/plugin-scaffolder-node';
import type { JsonObject, JsonValue } from '@backstage/types';

/** The template's output and the id of the task that produced it. */
export interface TemplateTaskResult {
  taskId: string;
  output: JsonObject;
}

export interface TemplateTaskOptions {
  /** Decides, as for the form, whether the caller may start the task. */
  permissions: PermissionsService;
  templateRef: string;
  /** The form's values (`undefined` is not JSON: leave the key out). */
  values: Record<string, JsonValue>;
  credentials: BackstageCredentials;
  /** How long the agent waits for the task; the task itself goes on. */
  timeoutMs: number;
  /** Between two reads of the task's events when none came (tests shorten it). */
  pollMs?: number;
}

interface TaskEvent {
  id: number;
  type: string;
  body: {
    message?: string;
    status?: string;
    stepId?: string;
    output?: unknown;
  };
}

/** The message of the step that failed, as the task page shows it. */
function failureOf(events: TaskEvent[]): string {
  const failed = events
    .filter(
      e => e.type === 'log' && e.body.status === 'failed' && e.body.stepId,
    )
    .map(e => e.body.message)
    .filter((message): message is string => Boolean(message));
  const completion = events.find(e => e.type === 'completion');
  return failed.join('\n') || completion?.body.message || 'the task failed';
}

/** The scaffolder client's refusal (`Backend request failed, <status> <body>`) in the caller's words. */
async function scaffolding<T>(templateRef: string, call: () => Promise<T>) {
  try {
    return await call();
  } catch (error) {
    const refused = /^Backend request failed, 400 [^{]*(\{.*\})?/s.exec(
      (error as Error).message ?? '',
    );
    if (!refused) throw error;
    // The template's parameters refuse a value (its pattern, a required field).
    throw new InputError(`${templateRef}: ${refused[1] ?? 'invalid values'}`);
  }
}

/** The permission every run of a form needs (the scaffolder checks it again). */
async function mayCreateTask(options: TemplateTaskOptions): Promise<void> {
  const [decision] = await options.permissions.authorize(
    [{ permission: taskCreatePermission }],
    { credentials: options.credentials },
  );
  if (decision.result !== AuthorizeResult.ALLOW) {
    throw new NotAllowedError(
      `you may not run ${options.templateRef}: the permission policy refuses you ${taskCreatePermission.name}, which its form needs too`,
    );
  }
}

export async function runTemplateTask(
  scaffolder: ScaffolderService,
  options: TemplateTaskOptions,
): Promise<TemplateTaskResult> {
  const { templateRef, values, credentials } = options;
  await mayCreateTask(options);
  const { taskId } = await scaffolding(templateRef, () =>
    scaffolder.scaffold({ templateRef, values }, { credentials }),
  );
  const events: TaskEvent[] = [];
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const last = events[events.length - 1];
    const fresh = (await scaffolder.getLogs(
      { taskId, ...(last ? { after: last.id } : {}) },
      { credentials },
    )) as TaskEvent[];
    events.push(...fresh);
    const completion = events.find(e => e.type === 'completion');
    if (completion) {
      const task = await scaffolder.getTask({ taskId }, { credentials });
      if (task.status !== 'completed') {
        // The GPU actions refuse a request in the form's words (field and rule).
        throw new InputError(
          `${templateRef} (task ${taskId}): ${failureOf(events)}`,
        );
      }
      return { taskId, output: (completion.body.output ?? {}) as JsonObject };
    }
    if (Date.now() > deadline) {
      throw new ServiceUnavailableError(
        `${templateRef} (task ${taskId}) has not finished after ${Math.round(options.timeoutMs / 1000)} s; it goes on, see the task page`,
      );
    }
    if (fresh.length === 0) {
      await new Promise(resolve => setTimeout(resolve, options.pollMs ?? 1000));
    }
  }
}

/** The URL of the template output's link titled `title` ('' when absent). */
export function outputLink(output: JsonObject, title: string): string {
  const links = Array.isArray(output.links) ? output.links : [];
  for (const link of links) {
    if (link && typeof link === 'object' && !Array.isArray(link)) {
      if (link.title === title && typeof link.url === 'string') return link.url;
    }
  }
  return '';
}

/** The content of the template output's text titled `title` ('' when absent). */
export function outputText(output: JsonObject, title: string): string {
  const texts = Array.isArray(output.text) ? output.text : [];
  for (const text of texts) {
    if (text && typeof text === 'object' && !Array.isArray(text)) {
      if (text.title === title && typeof text.content === 'string') {
        return text.content;
      }
    }
  }
  return '';
}
