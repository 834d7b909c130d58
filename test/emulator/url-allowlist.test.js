'use strict';
// The manifest's urlFetchWhitelist as https://developers.google.com/apps-script/manifest/allowlist-url
// describes it: which prefixes a manifest may hold, which URLs a prefix matches, and the fetch that is
// refused before it leaves.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { AppsScriptEmulator } = require('.');
const { UrlAllowlist } = require('./url-allowlist');
const { startTestServer } = require('./test-server');

describe('matching (the examples of the allowlist page)', () => {
  const foo = new UrlAllowlist(['https://example.com/foo']);
  test.each([
    'https://example.com/foo',
    'https://example.com/foo/',
    'https://example.com/foo/bar',
    'https://example.com/foo?bar',
    'https://example.com/foo#bar',
    'https://EXAMPLE.com/foo', // hosts are not case-sensitive
  ])('https://example.com/foo matches %s', (url) => expect(foo.allows(url)).toBe(true));

  test.each([
    'https://example.com/Foo', // path matching is case-sensitive
    'https://example.com/foobar', // not below /foo
    'https://example.com/',
    'http://example.com/foo',
    'https://example.com:8443/foo', // another port (the page names none: the default one only)
    'https://example.com.evil.net/foo',
    'https://sub.example.com/foo',
  ])('https://example.com/foo does not match %s', (url) => expect(foo.allows(url)).toBe(false));

  test('a leading wildcard matches one or more subdomains, never the bare domain or another path', () => {
    const list = new UrlAllowlist(['https://*.example.com/foo']);
    expect(list.allows('https://subdomain.example.com/foo')).toBe(true);
    expect(list.allows('https://any.number.of.subdomains.example.com/foo')).toBe(true);
    expect(list.allows('https://subdomain.example.com/bar')).toBe(false);
    expect(list.allows('https://example.com/foo')).toBe(false);
    expect(list.allows('https://badexample.com/foo')).toBe(false);
  });

  test("the local build's loopback prefixes match any port of 127.0.0.1 and localhost, nothing else", () => {
    const list = new UrlAllowlist(['http://127.0.0.1:*/', 'http://localhost:*/']);
    expect(list.allows('http://127.0.0.1:8787/api/v1/balance')).toBe(true);
    expect(list.allows('http://localhost:41234/x')).toBe(true);
    expect(list.allows('http://127.0.0.2:8787/')).toBe(false);
    expect(list.allows('https://127.0.0.1:8787/')).toBe(false);
  });
});

describe('prefixes a manifest may hold (refused when the manifest is saved)', () => {
  test.each([
    ['http://example.com/', /HTTPS scheme/],
    ['https://example.com', /path must not be empty/],
    ['https://*.*.example.com/foo', /one wildcard/],
    ['https://subdomain.*.example.com/foo', /leading label/],
    ['https://localhost/', /full domain/],
    ['http://192.168.1.1:*/', /HTTPS scheme/],
  ])('%s is refused', (prefix, problem) => {
    expect(() => new UrlAllowlist([prefix])).toThrow(problem);
  });

  test('valid prefixes load', () => {
    expect(() => new UrlAllowlist(['https://www.google.com/', 'https://*.example.com/foo'])).not.toThrow();
  });
});

describe('UrlFetchApp under a manifest', () => {
  let server;
  let dir;
  let emu;
  const CODE = `
    function get(url) { return UrlFetchApp.fetch(url).getContentText(); }
    function getAll(urls) { return UrlFetchApp.fetchAll(urls).map(function (r) { return r.getContentText(); }); }
  `;

  beforeAll(async () => {
    server = await startTestServer(async (req, res) => res.end('ok'));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'allowlist-'));
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => emu && emu.dispose());

  function withManifest(manifest, options = {}) {
    const file = path.join(dir, `appsscript-${Math.random()}.json`);
    fs.writeFileSync(file, JSON.stringify({ timeZone: 'Etc/UTC', ...manifest }));
    emu = new AppsScriptEmulator({ code: CODE, manifestPath: file, ...options });
    return emu;
  }

  test('a URL outside the list is refused with Apps Script’s message, and nothing is sent', async () => {
    withManifest({ urlFetchWhitelist: ['https://api.example.com/'] });
    const url = `${server.url}/secret?x=1`;
    expect(() => emu.run('get', [url])).toThrow(
      `Request to ${url} failed because the URL has not been whitelisted in the script manifest.`,
    );
    expect(() => emu.run('getAll', [[url]])).toThrow(/has not been whitelisted/);
    expect(await server.requests()).toHaveLength(0);
    expect(emu.fetchLog).toHaveLength(0);
  });

  test('listed URLs go through; with no urlFetchWhitelist, or enforcement off, nothing is restricted', async () => {
    withManifest({ urlFetchWhitelist: ['http://127.0.0.1:*/'] });
    expect(emu.run('get', [`${server.url}/a`])).toBe('ok');
    emu.dispose();
    withManifest({});
    expect(emu.run('get', [`${server.url}/b`])).toBe('ok');
    emu.dispose();
    withManifest({ urlFetchWhitelist: [] }, { enforceUrlFetchWhitelist: false });
    expect(emu.run('get', [`${server.url}/c`])).toBe('ok');
  });

  test('a manifest with an invalid prefix does not load', () => {
    expect(() => withManifest({ urlFetchWhitelist: ['http://api.example.com/'] })).toThrow(
      /appsscript.json has errors: .*HTTPS scheme/,
    );
    emu = null;
  });
});
