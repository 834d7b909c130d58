'use strict';
// Granular consent (grantedScopes, getAuthorizationInfo with scopes, requireScopes) and the daily URL Fetch
// quota (urlFetchDailyQuota), as README.md describes them with their sources.
const { AppsScriptEmulator } = require('.');
const { startTestServer } = require('./test-server');

const FETCH = 'https://www.googleapis.com/auth/script.external_request';
const TRIGGERS = 'https://www.googleapis.com/auth/script.scriptapp';
const HOUR = 3600000;
const CODE = `
  function info(scopes) {
    var i = ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL, scopes);
    return { status: String(i.getAuthorizationStatus()), granted: i.getAuthorizedScopes(), url: i.getAuthorizationUrl() };
  }
  function need(scopes) { ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, scopes); return 'went on'; }
  function trigger() { return ScriptApp.newTrigger('x').timeBased().everyHours(1).create().getUniqueId(); }
  function get(url) { return UrlFetchApp.fetch(url).getResponseCode(); }
  function getAll(url, n) { var r = []; for (var i = 0; i < n; i++) r.push(url); return UrlFetchApp.fetchAll(r).length; }`;

let server;
let emu;
beforeAll(async () => {
  server = await startTestServer(async (req, res) => res.end('ok'));
});
afterAll(() => server.close());
afterEach(() => emu && emu.dispose());

describe('granular consent', () => {
  test('getAuthorizationInfo(mode, scopes) answers for those scopes', () => {
    emu = new AppsScriptEmulator({ code: CODE, grantedScopes: [FETCH] });
    expect(emu.run('info', [[FETCH]])).toEqual({ status: 'NOT_REQUIRED', granted: [FETCH], url: null });
    const both = emu.run('info', [[FETCH, TRIGGERS]]);
    expect(both.status).toBe('REQUIRED');
    expect(both.granted).toEqual([FETCH]);
    expect(both.url).toMatch(/^https:\/\/script\.google\.com\/macros\/d\/.+\/authorize$/);
  });

  test('a service whose scope was refused throws the permission error', () => {
    emu = new AppsScriptEmulator({ code: CODE, grantedScopes: [FETCH] });
    expect(() => emu.run('trigger')).toThrow(
      `You do not have permission to call ScriptApp.newTrigger. Required permissions: ${TRIGGERS}`,
    );
    emu.grantedScopes = null; // granted later
    expect(emu.run('trigger')).toMatch(/^\d+$/);
  });

  test('requireScopes ends the execution with the consent prompt when a scope is missing', () => {
    emu = new AppsScriptEmulator({ code: CODE, grantedScopes: [FETCH] });
    expect(emu.run('need', [[FETCH]])).toBe('went on');
    expect(emu.run('need', [[FETCH, TRIGGERS]])).toBeUndefined();
    expect(emu.ui.authPrompts).toEqual([{ scopes: [TRIGGERS], atMs: expect.any(Number) }]);
    expect(emu.executions.at(-1).status).toBe('authorization prompt');
  });
});

describe('daily URL Fetch quota', () => {
  test('each call counts; past the quota the documented message, nothing sent; reset 24 h after the first call', () => {
    emu = new AppsScriptEmulator({ code: CODE, urlFetchDailyQuota: 5 });
    const url = `${server.url}/x`;
    const first = emu.clock.now();
    expect(emu.run('getAll', [url, 4])).toBe(4);
    expect(emu.fetchQuota()).toEqual({ used: 4, resetsAt: first + 24 * HOUR });
    expect(() => emu.run('getAll', [url, 2])).toThrow(
      'Service invoked too many times for one day: urlfetch.',
    );
    expect(emu.fetchLog).toHaveLength(4); // the batch that would pass it sent nothing
    expect(emu.run('get', [url])).toBe(200);
    expect(() => emu.run('get', [url])).toThrow('Service invoked too many times for one day: urlfetch.');
    emu.clock.advance(24 * HOUR - 1000);
    expect(() => emu.run('get', [url])).toThrow(/too many times/);
    emu.clock.advance(2000);
    expect(emu.run('get', [url])).toBe(200);
    expect(emu.fetchQuota().used).toBe(1);
  });

  test("the quota is per user and may be partly used by the account's other scripts", () => {
    emu = new AppsScriptEmulator({ code: CODE, urlFetchDailyQuota: 3 });
    const url = `${server.url}/x`;
    emu.setFetchQuotaUsed(3);
    expect(() => emu.run('get', [url])).toThrow(/too many times for one day: urlfetch/);
    expect(emu.run('get', [url], { user: 'editor@example.com' })).toBe(200);
  });
});
