import { readServerUrl } from './serverUrl';

const words = {
  credentials: 'must not carry credentials; give a token in `token` instead',
};

describe('readServerUrl', () => {
  it('keeps an http(s) URL without its trailing slashes', () => {
    expect(readServerUrl('k', 'https://prom.example.com:9090/', words)).toBe(
      'https://prom.example.com:9090',
    );
    expect(readServerUrl('k', 'http://10.0.0.1/api//', words)).toBe(
      'http://10.0.0.1/api',
    );
  });

  it('refuses what is not a URL without repeating the value', () => {
    expect(() => readServerUrl('a.url', 'token-abc', words)).toThrow(
      'a.url: is not a URL (the value is not repeated: it may hold a secret)',
    );
  });

  it("refuses another scheme and credentials in the URL, in the caller's words", () => {
    expect(() => readServerUrl('a.url', 'ftp://h', words)).toThrow(
      'a.url: must be an http:// or https:// URL',
    );
    expect(() => readServerUrl('a.url', 'https://u:p@h', words)).toThrow(
      'a.url: must not carry credentials; give a token in `token` instead',
    );
  });
});
