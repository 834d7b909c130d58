'use strict';
// UrlFetchApp makes real HTTP requests, synchronously, to a server running in a worker thread.
const { AppsScriptEmulator } = require('.');
const { startTestServer } = require('./test-server');

let server;
let emu;

beforeAll(async () => {
  server = await startTestServer(async (req, res, { body, sleep, state }) => {
    const u = new URL(req.url, 'http://x');
    const send = (status, text, headers = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(text);
    };
    if (u.pathname === '/echo') {
      return send(200, JSON.stringify({ method: req.method, headers: req.headers, body, query: u.search }), {
        'Set-Cookie': ['a=1', 'b=2'],
        'X-Request-Id': 'req-1',
      });
    }
    if (u.pathname === '/slow') {
      await sleep(Number(u.searchParams.get('ms')));
      return send(200, JSON.stringify({ id: u.searchParams.get('id') }));
    }
    if (u.pathname === '/status') {
      const code = Number(u.searchParams.get('code'));
      return send(
        code,
        JSON.stringify({ type: 'about:blank', title: 'Problem ' + code, detail: 'x'.repeat(200) }),
      );
    }
    if (u.pathname === '/redirect') {
      res.writeHead(302, { Location: '/echo?from=redirect' });
      return res.end();
    }
    if (u.pathname === '/drop') return req.socket.destroy();
    if (u.pathname === '/hang') return undefined;
    if (u.pathname === '/count') {
      state.n = (state.n || 0) + 1;
      return send(200, String(state.n));
    }
    return send(404, 'not found');
  });
});

afterAll(async () => {
  await server.close();
});

afterEach(() => emu && emu.dispose());

const CODE = `
  function get(url) { var r = UrlFetchApp.fetch(url); return { code: r.getResponseCode(), json: JSON.parse(r.getContentText()), headers: r.getHeaders(), all: r.getAllHeaders() }; }
  function post(url, payload, contentType, headers) {
    var r = UrlFetchApp.fetch(url, { method: 'post', payload: payload, contentType: contentType, headers: headers });
    return JSON.parse(r.getContentText());
  }
  function status(url, mute) {
    var r = UrlFetchApp.fetch(url, { muteHttpExceptions: mute });
    return { code: r.getResponseCode(), title: JSON.parse(r.getContentText()).title };
  }
  function all(urls) {
    return UrlFetchApp.fetchAll(urls.map(function (u) { return { url: u, muteHttpExceptions: true }; }))
      .map(function (r) { return r.getResponseCode() + ':' + r.getContentText(); });
  }
  function bytes(url) { var r = UrlFetchApp.fetch(url); return [r.getContent().length, r.getBlob().getDataAsString().length, r.getBlob().getContentType()]; }
  function noFollow(url) { return UrlFetchApp.fetch(url, { followRedirects: false }).getResponseCode(); }
  function caught(url) { try { UrlFetchApp.fetch(url); return 'no error'; } catch (e) { return [e instanceof Error, e.name, e.message]; } }
  function timed(url) { var a = Date.now(); UrlFetchApp.fetch(url); UrlFetchApp.fetchAll([url, url, url]); return Date.now() - a; }`;

const make = (opts) => (emu = new AppsScriptEmulator({ code: CODE, ...opts }));

test('fetch is synchronous and returns an HTTPResponse', () => {
  make();
  const out = emu.run('get', [`${server.url}/echo?q=1`]);
  expect(out.code).toBe(200);
  expect(out.json).toMatchObject({ method: 'GET', query: '?q=1' });
  expect(out.json.headers['user-agent']).toMatch(/Google-Apps-Script/);
  expect(out.headers['X-Request-Id']).toBe('req-1');
  expect(out.all['Set-Cookie']).toEqual(['a=1', 'b=2']);
});

test('payloads: a string is sent as is, an object is form-encoded; headers are sent', () => {
  make();
  const json = emu.run('post', [
    `${server.url}/echo`,
    JSON.stringify({ a: 1 }),
    'application/json',
    { Authorization: 'Bearer k' },
  ]);
  expect(json).toMatchObject({ method: 'POST', body: '{"a":1}' });
  expect(json.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer k' });
  const form = emu.run('post', [`${server.url}/echo`, { name: 'Acme & Co', n: 2 }]);
  expect(form.body).toBe('name=Acme%20%26%20Co&n=2');
  expect(form.headers['content-type']).toBe('application/x-www-form-urlencoded');
});

test('status >= 400 throws unless muteHttpExceptions', () => {
  make();
  expect(emu.run('status', [`${server.url}/status?code=429`, true])).toEqual({
    code: 429,
    title: 'Problem 429',
  });
  let err;
  try {
    emu.run('status', [`${server.url}/status?code=402`, false]);
  } catch (e) {
    err = e;
  }
  expect(err.message).toMatch(
    new RegExp(
      `^Request failed for ${server.url.replace(/\./g, '\\.')}/status\\?code=402 returned code 402\\. Truncated server response: \\{"type":"about:blank".{60,}\\.\\.\\. \\(use muteHttpExceptions option to examine full response\\)$`,
    ),
  );
  expect(err.name).toBe('Exception');
});

test('fetchAll runs its requests in parallel and advances the virtual clock once', async () => {
  make({ fetchLatencyMs: 50 });
  const urls = [1, 2, 3, 4, 5].map((i) => `${server.url}/slow?ms=300&id=${i}`);
  const v0 = emu.clock.now();
  const out = emu.run('all', [urls]);
  expect(out).toEqual([1, 2, 3, 4, 5].map((i) => `200:{"id":"${i}"}`));
  expect(emu.clock.now() - v0).toBe(50);
  expect(emu.stats.urlFetch).toEqual({ calls: 1, requests: 5 });
  // In parallel: the server had every request before it answered the first (a bound on the wall-clock time
  // would measure the machine's load instead).
  const log = (await server.requests()).filter((r) => r.url.startsWith('/slow'));
  const firstAnswer = Math.min(...log.map((r) => r.answeredAtMs));
  expect(log.every((r) => r.receivedAtMs < firstAnswer)).toBe(true);
});

test('each fetch adds fetchLatencyMs of virtual time, and is logged', () => {
  make({ fetchLatencyMs: 120 });
  expect(emu.run('timed', [`${server.url}/count`])).toBe(240);
  expect(emu.fetchLog).toHaveLength(4);
  expect(emu.fetchLog[0]).toMatchObject({
    method: 'GET',
    url: `${server.url}/count`,
    status: 200,
    payload: null,
  });
  expect(emu.stats.urlFetch).toEqual({ calls: 2, requests: 4 });
});

test('redirects are followed unless followRedirects is false; getContent and getBlob', () => {
  make();
  expect(emu.run('get', [`${server.url}/redirect`]).json.query).toBe('?from=redirect');
  expect(emu.run('noFollow', [`${server.url}/redirect`])).toBe(302);
  expect(emu.run('bytes', [`${server.url}/count`])).toEqual([1, 1, 'application/json']);
});

test('refused and dropped connections throw errors, not responses', () => {
  make();
  expect(emu.run('caught', ['http://127.0.0.1:1/x'])).toEqual([
    true,
    'Exception',
    'Address unavailable: http://127.0.0.1:1/x',
  ]);
  expect(emu.run('caught', [`${server.url}/drop`])).toEqual([
    true,
    'Exception',
    `Unexpected error: ${server.url}/drop`,
  ]);
  expect(emu.fetchLog.map((l) => l.status)).toEqual([null, null]);
});

test('a hung server hits the per-request timeout', () => {
  make({ fetchTimeoutMs: 300 });
  expect(emu.run('caught', [`${server.url}/hang`])).toEqual([
    true,
    'Exception',
    `Timeout: ${server.url}/hang`,
  ]);
});

test('dispose stops the worker; the next fetch starts a new one', () => {
  make();
  emu.run('get', [`${server.url}/echo`]);
  emu.dispose();
  expect(emu.run('get', [`${server.url}/echo`]).code).toBe(200);
});
