import { GpuInputError, InputIssue } from '../../errors';

/** Runs `fn`, expects a GpuInputError and returns its issues. */
export function inputIssues(fn: () => unknown): InputIssue[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(GpuInputError);
    return (error as GpuInputError).issues;
  }
  throw new Error('expected a GpuInputError');
}
