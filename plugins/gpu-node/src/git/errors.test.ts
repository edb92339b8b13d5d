import {
  classifyGitFailure,
  parsePushRefusal,
  pushRefusalMessage,
} from './errors';

/** What `git push --porcelain` prints (stderr, then stdout) for one refused ref. */
const porcelain = (summary: string, remote: string[] = []) =>
  [
    ...remote.map(l => `remote: ${l}        `),
    "error: failed to push some refs to 'https://git.example.com/o/r.git'",
    'To https://git.example.com/o/r.git',
    `!\tHEAD:refs/heads/gpu/ml-llm\t${summary}`,
    'Done',
  ].join('\n');

describe('classifyGitFailure', () => {
  it('retries only a moved base or branch', () => {
    for (const reason of ['stale info', 'fetch first', 'non-fast-forward']) {
      expect(classifyGitFailure(porcelain(`[rejected] (${reason})`))).toBe(
        'push-rejected',
      );
    }
    expect(
      classifyGitFailure(
        porcelain(
          "[remote rejected] (cannot lock ref 'refs/heads/gpu/ml-llm': is at 1234 but expected 5678)",
        ),
      ),
    ).toBe('push-rejected');
    expect(
      classifyGitFailure(
        ' ! [rejected]        HEAD -> gpu/ml-llm (fetch first)\nerror: failed to push some refs',
      ),
    ).toBe('push-rejected');
  });

  it('reports a rule of the remote as a refusal, even when its words look like an auth failure', () => {
    expect(
      classifyGitFailure(
        porcelain('[remote rejected] (pre-receive hook declined)', [
          'GitLab: You are not allowed to push code to protected branches on this project.',
          'GL-HOOK-ERR: permission denied (403)',
        ]),
      ),
    ).toBe('push-refused');
    expect(
      classifyGitFailure(
        ' ! [remote rejected] HEAD -> gpu/ml-llm (hook declined)\nerror: failed to push some refs',
      ),
    ).toBe('push-refused');
    expect(
      classifyGitFailure(
        porcelain('[remote rejected] (shallow update not allowed)'),
      ),
    ).toBe('push-refused');
  });

  it('keeps auth failures and other errors apart', () => {
    expect(
      classifyGitFailure(
        "fatal: Authentication failed for 'https://git.example.com/o/r.git/'",
      ),
    ).toBe('auth');
    expect(classifyGitFailure('fatal: not a git repository')).toBe('git');
  });
});

describe('parsePushRefusal', () => {
  it('names the refused ref, quotes the remote and spots protected branches', () => {
    const refusal = parsePushRefusal(
      porcelain('[remote rejected] (protected branch hook declined)', [
        'error: GH006: Protected branch update failed for refs/heads/gpu/ml-llm.',
        '',
        'error: Changes must be made through a pull request.',
      ]),
    );
    expect(refusal).toEqual({
      refs: ['refs/heads/gpu/ml-llm (protected branch hook declined)'],
      remoteLines: [
        'error: GH006: Protected branch update failed for refs/heads/gpu/ml-llm.',
        'error: Changes must be made through a pull request.',
      ],
      protectedBranch: true,
    });
    expect(
      pushRefusalMessage('https://git.example.com/o/r.git', refusal!),
    ).toBe(
      'https://git.example.com/o/r.git refused the push of refs/heads/gpu/ml-llm (protected branch hook declined) by a rule of its own; it said:\n' +
        '  remote: error: GH006: Protected branch update failed for refs/heads/gpu/ml-llm.\n' +
        '  remote: error: Changes must be made through a pull request.\n' +
        "This is not a conflict a retry could solve, so it was not retried: ask the repository's owners about the rule (a protected branch).",
    );
  });

  it('finds nothing in a moved-base rejection', () => {
    expect(parsePushRefusal(porcelain('[rejected] (stale info)'))).toBe(
      undefined,
    );
  });
});
