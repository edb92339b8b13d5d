/**
 * A refused request fails its step with the reason, never a stack trace.
 *
 * The scaffolder writes a failed step's `error.stack` into the task log
 * (`markFailed` in NunjucksWorkflowRunner, @backstage/plugin-scaffolder-backend
 * 4.2.0: `task.emitLog(String(err.stack), { status: 'failed' })`; its
 * redaction keeps a string `stack` as it is) and completes the task with the
 * error's name and message. A refusal is the user's to fix, not a fault to
 * debug, so its "stack" is its message: the log shows the reason in the
 * form's words and nothing else. Faults (anything but an InputError) keep
 * their stack.
 */
import { isError } from '@backstage/errors';
import type { TemplateAction } from '@backstage/plugin-scaffolder-node';
import { toInputError } from './gpuRequestInput';

/** `error` as the task log should show it: an InputError (or GpuInputError) reads as its message alone. */
export function asRefusal(error: unknown): unknown {
  const mapped = toInputError(error);
  if (isError(mapped) && mapped.name === 'InputError') {
    mapped.stack = mapped.message;
  }
  return mapped;
}

/** The action with its handler's refusals failing the step cleanly (see above). */
export function refusingCleanly<A extends TemplateAction<any, any, any>>(
  action: A,
): A {
  const handler = action.handler;
  return {
    ...action,
    async handler(ctx) {
      try {
        await handler(ctx);
      } catch (error) {
        throw asRefusal(error);
      }
    },
  };
}
