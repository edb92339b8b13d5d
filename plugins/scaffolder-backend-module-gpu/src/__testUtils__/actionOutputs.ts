import type { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';

/** The outputs an action set on a mock context, by name (the last value wins). */
export function outputsOf(
  ctx: ReturnType<typeof createMockActionContext>,
): Record<string, any> {
  return Object.fromEntries(
    (ctx.output as jest.Mock).mock.calls.map(([k, v]) => [k, v]),
  );
}
