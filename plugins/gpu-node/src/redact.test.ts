import { Redactor, redactCredentialPatterns, redactingLogger } from './redact';

const TOKEN = 'ghp_CanaryToken0123456789abcdef';

describe('redactCredentialPatterns', () => {
  it('masks user-info in URLs', () => {
    expect(
      redactCredentialPatterns(
        'fatal: unable to access https://user:s3cret@github.example.com/o/r.git/',
      ),
    ).toBe('fatal: unable to access https://***@github.example.com/o/r.git/');
    expect(redactCredentialPatterns('http://tok@host:3000/x')).toBe(
      'http://***@host:3000/x',
    );
  });

  it('masks every URL form of a token it was never told about', () => {
    const canary = 'canary-unregistered-9d8c7b6a';
    const forms = [
      `fatal: unable to access 'git://user:${canary}@git.example.com/o/r.git'`,
      `git://${canary}@git.example.com/o/r.git`,
      `ssh://git:${canary}@host:22/o/r.git`,
      `https://u:p@${canary}@host/o/r.git`,
      `https://host/o/r.git?access_token=${canary}`,
      `https://host/o/r.git?ref=main&private_token=${canary}#x`,
      `https://bucket.example/o?X-Amz-Signature=${canary}&a=1`,
      `https://host/o?token=${canary} https://host/o?password=${canary}`,
      `https://host/o?client_secret=${canary};sig=${canary}&auth=${canary}`,
      `fatal: '${canary}@github.com:o/r.git' does not appear to be a git repository`,
      `remote ${canary}@[::1]:o/r.git`,
      `x-access-token:${canary}@github.com/o/r.git`,
    ];
    for (const text of forms) {
      expect(redactCredentialPatterns(text)).not.toContain(canary);
    }
    expect(
      redactCredentialPatterns(
        `https://host/o.git?ref=main&access_token=${canary}`,
      ),
    ).toBe('https://host/o.git?ref=main&access_token=***');
    expect(redactCredentialPatterns(`to ${canary}@github.com:o/r.git`)).toBe(
      'to ***@github.com:o/r.git',
    );
  });

  it('leaves URLs without credentials alone', () => {
    const text =
      'see https://github.com/o/r/pull/1?diff=split and git@github.com:o/r, mail bot@example.com: thanks';
    expect(redactCredentialPatterns(text)).toBe(text);
  });

  it('masks bearer, basic and token headers', () => {
    expect(redactCredentialPatterns('Authorization: Bearer abc.def.ghi')).toBe(
      'Authorization: Bearer ***',
    );
    expect(
      redactCredentialPatterns(
        'http.extraHeader=Authorization: Basic eC1hY2Nlc3M6dA==',
      ),
    ).toBe('http.extraHeader=Authorization: Basic ***');
    expect(redactCredentialPatterns('authorization: token abcdef')).toBe(
      'authorization: token ***',
    );
    expect(redactCredentialPatterns('PRIVATE-TOKEN: glpat-xyz')).toBe(
      'PRIVATE-TOKEN: ***',
    );
    expect(redactCredentialPatterns('sent Bearer abcdefgh12345 upstream')).toBe(
      'sent Bearer *** upstream',
    );
    expect(redactCredentialPatterns('needs basic authentication here')).toBe(
      'needs basic authentication here',
    );
  });
});

describe('Redactor', () => {
  const redactor = new Redactor([TOKEN, undefined, '']);

  it('replaces a registered secret everywhere', () => {
    expect(redactor.redact(`a ${TOKEN} b ${TOKEN}`)).toBe('a *** b ***');
  });

  it('replaces URL-encoded and base64 forms', () => {
    const basic = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
    const oauth = Buffer.from(`oauth2:${TOKEN}`).toString('base64');
    const raw64 = Buffer.from(TOKEN).toString('base64');
    const text = `h=${basic} g=${oauth} r=${raw64} u=${encodeURIComponent(
      `x-access-token:${TOKEN}`,
    )}`;
    const out = redactor.redact(text);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(basic);
    expect(out).not.toContain(oauth);
    expect(out).not.toContain(raw64);
    expect(out).toBe('h=*** g=*** r=*** u=***');
  });

  it('replaces URL-encoded secrets with reserved characters', () => {
    const password = 'p@ss/w:rd#1';
    const r = new Redactor([password]);
    expect(r.redact(`x ${encodeURIComponent(password)} y ${password}`)).toBe(
      'x *** y ***',
    );
  });

  it('ignores too-short secrets instead of shredding text', () => {
    expect(new Redactor(['ab']).redact('about a cab')).toBe('about a cab');
  });

  it('redacts errors (message, stack and own fields)', () => {
    const error = Object.assign(new Error(`push failed for ${TOKEN}`), {
      stderr: `remote: token ${TOKEN} rejected`,
    });
    const redacted = redactor.redactError(error);
    expect(redacted.message).toBe('push failed for ***');
    expect(redacted.stack).not.toContain(TOKEN);
    expect((redacted as any).stderr).toBe('remote: token *** rejected');
    class CustomError extends Error {}
    expect(redactor.redactError(new CustomError(TOKEN))).toBeInstanceOf(
      CustomError,
    );
  });

  it('redacts structured values', () => {
    expect(redactor.redactValue({ a: [`x${TOKEN}`], n: 1 })).toEqual({
      a: ['x***'],
      n: 1,
    });
  });

  it('wraps a logger so nothing secret reaches it', () => {
    const lines: string[] = [];
    const logger = redactingLogger(
      { info: m => lines.push(m), warn: m => lines.push(m) },
      redactor,
    );
    logger.info(`cloning https://x-access-token:${TOKEN}@host/r.git`);
    logger.warn(`token ${TOKEN}`);
    logger.error?.(`boom ${TOKEN}`);
    expect(lines).toEqual([
      'cloning https://***@host/r.git',
      'token ***',
      'boom ***',
    ]);
  });
});
