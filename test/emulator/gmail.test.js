'use strict';
// The Gmail advanced service of the emulator (gmail.js, gmail-query.js, gmail-message.js), rule by rule as
// README.md ("Gmail advanced service") states them with their sources.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { AppsScriptEmulator } = require('.');
const { COST_KINDS } = require('./cost-model');

const READONLY = 'https://www.googleapis.com/auth/gmail.readonly';
const METADATA = 'https://www.googleapis.com/auth/gmail.metadata';
const SHEETS = 'https://www.googleapis.com/auth/spreadsheets.currentonly';
const GMAIL_SERVICE = { userSymbol: 'Gmail', serviceId: 'gmail', version: 'v1' };
const ME = 'owner@example.com';
const T0 = Date.UTC(2026, 11, 1, 10, 0, 0); // 1 Dec 2026, 10:00 UTC
const HOUR = 3600000;
const CODE = `
  function list(args) { return Gmail.Users.Messages.list('me', args || {}); }
  function ids(q, extra) {
    var args = extra || {}; args.q = q;
    return (Gmail.Users.Messages.list('me', args).messages || []).map(function (m) { return m.id; });
  }
  function get(id, args) { return Gmail.Users.Messages.get('me', id, args || {}); }
  function failure(fn, a, b) {
    try { this[fn](a, b); return null; } catch (e) { return { text: String(e), name: e.name, details: e.details }; }
  }
  function present() { return typeof Gmail !== 'undefined'; }
  function listFor(user) { return Gmail.Users.Messages.list(user, {}); }`;

const dirs = [];
function manifestDir(manifest) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-gmail-'));
  fs.writeFileSync(path.join(dir, 'appsscript.json'), JSON.stringify(manifest));
  dirs.push(dir);
  return dir;
}
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** An emulator whose manifest enables Gmail with `scopes`, its clock at T0. */
function withGmail({ scopes = [SHEETS, READONLY], ...options } = {}) {
  const dir = manifestDir({
    oauthScopes: scopes,
    dependencies: { enabledAdvancedServices: [GMAIL_SERVICE] },
  });
  const emu = new AppsScriptEmulator({ code: CODE, htmlDir: dir, ...options });
  emu.clock.set(T0);
  return emu;
}

function deliver(emu, mail) {
  return emu.gmail.deliver(ME, { date: T0 - HOUR, body: 'Hello', ...mail }).id;
}

describe('presence and scopes', () => {
  test('the Gmail global exists only when the manifest enables the advanced service', () => {
    expect(withGmail().run('present')).toBe(true);
    const plain = new AppsScriptEmulator({ code: CODE, htmlDir: manifestDir({ oauthScopes: [SHEETS] }) });
    expect(plain.run('present')).toBe(false);
    expect(() => plain.run('list')).toThrow('Gmail is not defined');
  });

  test('the userSymbol of the manifest names the global', () => {
    const dir = manifestDir({
      oauthScopes: [READONLY],
      dependencies: { enabledAdvancedServices: [{ ...GMAIL_SERVICE, userSymbol: 'Mail' }] },
    });
    const emu = new AppsScriptEmulator({ code: 'function f() { return typeof Mail; }', htmlDir: dir });
    expect(emu.run('f')).toBe('object');
  });

  test('no Gmail scope in the manifest: 403 insufficient authentication scopes', () => {
    const emu = withGmail({ scopes: [SHEETS] });
    const e = emu.run('failure', ['list']);
    expect(e.text).toBe(
      'GoogleJsonResponseException: API call to gmail.users.messages.list failed with error: ' +
        'Request had insufficient authentication scopes.',
    );
    expect(e.details.code).toBe(403);
  });

  test('a Gmail scope the user refused (granular consent) fails the same way', () => {
    const emu = withGmail({ grantedScopes: [SHEETS] });
    expect(emu.run('failure', ['get', 'abc']).text).toContain('insufficient authentication scopes');
    emu.grantedScopes = null;
    expect(emu.run('list')).toEqual({ resultSizeEstimate: 0 });
  });

  test('gmail.metadata alone: no q, no full format', () => {
    const emu = withGmail({ scopes: [METADATA] });
    const id = deliver(emu, { from: 'a@x.com' });
    expect(emu.run('failure', ['list', { q: 'from:a@x.com' }]).text).toContain(
      "Metadata scope does not support 'q' parameter",
    );
    expect(emu.run('failure', ['get', id]).text).toContain("Metadata scope doesn't allow format FULL");
    expect(emu.run('get', [id, { format: 'metadata' }]).id).toBe(id);
  });

  test('not in an unauthorized mode, nor for another user', () => {
    const emu = withGmail();
    expect(() => emu.run('list', [], { kind: 'simple', authMode: 'LIMITED' })).toThrow(
      `You do not have permission to call Gmail.Users.Messages.list. Required permissions: ${READONLY}`,
    );
    expect(emu.run('failure', ['listFor', 'someone@else.com']).text).toContain(`Delegation denied for ${ME}`);
    expect(emu.run('listFor', [ME])).toEqual({ resultSizeEstimate: 0 });
  });
});

describe('users.messages.list', () => {
  test('newest first, ids and threadIds only, no messages key when none match', () => {
    const emu = withGmail();
    const old = deliver(emu, { from: 'a@x.com', date: T0 - 3 * HOUR });
    const recent = deliver(emu, { from: 'b@x.com', date: T0 - HOUR });
    const out = emu.run('list');
    expect(out.messages).toEqual([
      { id: recent, threadId: recent },
      { id: old, threadId: old },
    ]);
    expect(out.resultSizeEstimate).toBe(2);
    expect(emu.run('list', [{ q: 'from:nobody@x.com' }])).toEqual({ resultSizeEstimate: 0 });
  });

  test('maxResults defaults to 100, stops at 500; pages follow nextPageToken', () => {
    const emu = withGmail();
    for (let i = 0; i < 620; i++) deliver(emu, { from: `p${i}@x.com`, date: T0 - HOUR + i });
    expect(emu.run('list').messages).toHaveLength(100);
    const first = emu.run('list', [{ maxResults: 1000 }]);
    expect(first.messages).toHaveLength(500);
    const second = emu.run('list', [{ maxResults: 500, pageToken: first.nextPageToken }]);
    expect(second.messages).toHaveLength(120);
    expect(second.nextPageToken).toBeUndefined();
    const seen = new Set([...first.messages, ...second.messages].map((m) => m.id));
    expect(seen.size).toBe(620);
  });

  test('a message arriving between pages does not shift the next page', () => {
    const emu = withGmail();
    for (let i = 0; i < 5; i++) deliver(emu, { from: `p${i}@x.com`, date: T0 - HOUR + i });
    const first = emu.run('list', [{ maxResults: 2 }]);
    deliver(emu, { from: 'late@x.com', date: T0 });
    const second = emu.run('list', [{ maxResults: 10, pageToken: first.nextPageToken }]);
    expect(second.messages).toHaveLength(3);
  });

  test('gmailQueryMaxChars: a longer q is a 400 (Gmail documents no limit; none by default)', () => {
    const long = `from:(${Array.from({ length: 60 }, (_, i) => `p${i}@example.com`).join(' OR ')})`;
    expect(withGmail().run('list', [{ q: long }])).toEqual({ resultSizeEstimate: 0 });
    const e = withGmail({ gmailQueryMaxChars: 1000 }).run('failure', ['list', { q: long }]);
    expect(e.details.code).toBe(400);
    expect(e.text).toContain("Query too long (the emulator's gmailQueryMaxChars is 1000");
  });

  test('an invalid pageToken is a 400', () => {
    const e = withGmail().run('failure', ['list', { pageToken: 'nonsense' }]);
    expect(e.text).toContain('failed with error: Invalid pageToken');
    expect(e.details.code).toBe(400);
  });

  test('spam and trash are left out unless asked for; labelIds must all match', () => {
    const emu = withGmail();
    deliver(emu, { from: 's@x.com', labelIds: ['SPAM'] });
    const inbox = deliver(emu, { from: 'i@x.com' });
    expect(emu.run('ids', [''])).toEqual([inbox]);
    expect(emu.run('ids', ['', { includeSpamTrash: true }])).toHaveLength(2);
    expect(emu.run('ids', ['in:anywhere'])).toHaveLength(2);
    expect(emu.run('ids', ['', { labelIds: ['INBOX', 'UNREAD'] }])).toEqual([inbox]);
  });
});

describe('the q operators the add-on uses', () => {
  let emu;
  const id = {};
  beforeAll(() => {
    emu = withGmail();
    id.ann = deliver(emu, {
      from: 'Ann Lee <reply.ann@acme.com>',
      subject: 'Re: Our offer',
      date: T0 - 5 * HOUR,
    });
    id.bob = deliver(emu, {
      from: 'bob@beta.io',
      subject: 'Out of office',
      body: 'I am back on 10 December 2026',
      date: T0 - 2 * HOUR,
    });
    id.cy = deliver(emu, {
      from: 'cy@gamma.org',
      to: 'team@example.com',
      subject: 'Remove me',
      date: T0 - 30 * 24 * HOUR,
    });
    id.me = deliver(emu, {
      from: ME,
      to: 'bob@beta.io',
      subject: 'Our offer',
      labelIds: ['SENT'],
      date: T0 - HOUR,
    });
  });
  const q = (query) => emu.run('ids', [query]).sort();
  const of = (...names) => names.map((n) => id[n]).sort();

  test('from: an address, a group with OR, a { } group, a domain', () => {
    expect(q('from:reply.ann@acme.com')).toEqual(of('ann'));
    expect(q('from:(reply.ann@acme.com OR bob@beta.io)')).toEqual(of('ann', 'bob'));
    expect(q('from:{reply.ann@acme.com bob@beta.io cy@gamma.org}')).toEqual(of('ann', 'bob', 'cy'));
    expect(q('{from:bob@beta.io from:cy@gamma.org}')).toEqual(of('bob', 'cy'));
    expect(q('from:acme.com')).toEqual(of('ann'));
    expect(q('from:@beta.io')).toEqual(of('bob'));
    expect(q('from:ann')).toEqual(of('ann'));
  });

  test('to:, -from:me, in:inbox, -in:sent', () => {
    expect(q('to:team@example.com')).toEqual(of('cy'));
    expect(q('to:bob@beta.io')).toEqual(of('me'));
    expect(q('-from:me')).toEqual(of('ann', 'bob', 'cy'));
    expect(q('from:me')).toEqual(of('me'));
    expect(q('in:inbox')).toEqual(of('ann', 'bob', 'cy'));
    expect(q('-in:sent')).toEqual(of('ann', 'bob', 'cy'));
  });

  test('after: / before: in epoch seconds, and dates at midnight Pacific time', () => {
    const s = (ms) => Math.floor(ms / 1000);
    expect(q(`after:${s(T0 - 3 * HOUR)}`)).toEqual(of('bob', 'me'));
    expect(q(`before:${s(T0 - 3 * HOUR)}`)).toEqual(of('ann', 'cy'));
    // 1 Dec 2026 00:00 in Los Angeles is 08:00 UTC: Ann (05:00 UTC) is before it.
    expect(q('after:2026/12/01')).toEqual(of('bob', 'me'));
    expect(q('after:2026/11/30 before:2026/12/01')).toEqual(of('ann'));
    expect(q('newer_than:1d')).toEqual(of('ann', 'bob', 'me'));
    expect(q('older_than:7d')).toEqual(of('cy'));
  });

  test('subject:, quoted words, plain words, OR, - negation, AND', () => {
    expect(q('subject:offer')).toEqual(of('ann', 'me'));
    expect(q('subject:"out of office"')).toEqual(of('bob'));
    expect(q('"back on 10 December"')).toEqual(of('bob'));
    expect(q('subject:offer -from:me')).toEqual(of('ann'));
    expect(q('from:bob@beta.io OR from:cy@gamma.org')).toEqual(of('bob', 'cy'));
    expect(q('in:inbox from:bob@beta.io OR from:cy@gamma.org')).toEqual(of('bob', 'cy'));
    expect(q('subject:offer AND from:ann')).toEqual(of('ann'));
  });

  test('an operator the emulator does not model is read as words, with a warning', () => {
    emu.warnings.length = 0;
    expect(q('has:attachment')).toEqual([]);
    expect(emu.warnings[0]).toMatch(/"has:" is not modelled/);
  });
});

describe('users.messages.get', () => {
  test('metadata: only the headers asked for (any case); minimal: no payload', () => {
    const emu = withGmail();
    const id = deliver(emu, {
      from: 'ooo.kim@acme.com',
      subject: 'Out of office',
      headers: { 'Auto-Submitted': 'auto-replied' },
      body: 'Back on 10 December.',
    });
    const meta = emu.run('get', [id, { format: 'metadata', metadataHeaders: ['auto-submitted', 'From'] }]);
    expect(meta.payload.headers).toEqual([
      { name: 'From', value: 'ooo.kim@acme.com' },
      { name: 'Auto-Submitted', value: 'auto-replied' },
    ]);
    expect(meta).toMatchObject({
      id,
      threadId: id,
      snippet: 'Back on 10 December.',
      labelIds: ['INBOX', 'UNREAD'],
    });
    expect(meta.internalDate).toBe(String(T0 - HOUR));
    expect(emu.run('get', [id, { format: 'minimal' }]).payload).toBeUndefined();
  });

  test('full: the body base64url-encoded; raw: the whole message', () => {
    const emu = withGmail();
    const id = deliver(emu, { from: 'a@x.com', body: 'Please remove me from your list?' });
    const full = emu.run('get', [id]);
    expect(full.payload.mimeType).toBe('text/plain');
    expect(Buffer.from(full.payload.body.data, 'base64url').toString()).toBe(
      'Please remove me from your list?',
    );
    expect(full.payload.body.data).not.toMatch(/[+/]/);
    const raw = Buffer.from(emu.run('get', [id, { format: 'raw' }]).raw, 'base64url').toString();
    expect(raw).toMatch(
      /^Delivered-To: owner@example.com\r\nReturn-Path: <a@x.com>\r\n(?:.+\r\n)*From: a@x.com\r\n/,
    );
    const html = deliver(emu, { from: 'b@x.com', body: 'Hi', html: '<p>Hi</p>' });
    expect(emu.run('get', [html]).payload.parts.map((p) => p.mimeType)).toEqual(['text/plain', 'text/html']);
  });

  test('an unknown id is a 404, a malformed one a 400', () => {
    const emu = withGmail();
    const missing = emu.run('failure', ['get', '18c0ffee00000000']);
    expect(missing.text).toBe(
      'GoogleJsonResponseException: API call to gmail.users.messages.get failed with error: Requested entity was not found.',
    );
    expect(missing.details).toEqual({
      code: 404,
      message: 'Requested entity was not found.',
      errors: [{ message: 'Requested entity was not found.', domain: 'global', reason: 'notFound' }],
    });
    expect(emu.run('failure', ['get', 'not an id']).details.code).toBe(400);
  });

  test('a reply joins its thread through In-Reply-To', () => {
    const emu = withGmail();
    const first = emu.gmail.deliver(ME, { from: 'a@x.com', messageId: '<m1@x.com>' });
    const reply = emu.gmail.deliver(ME, { from: 'a@x.com', inReplyTo: '<m1@x.com>' });
    expect(reply.threadId).toBe(first.threadId);
  });
});

describe('quota and time', () => {
  test('list and get cost 5 units each; past 15,000 a minute: 429 until the minute has passed', () => {
    const emu = withGmail({ gmailLatencyMs: 0 });
    const id = deliver(emu, { from: 'a@x.com' });
    emu.run('list');
    emu.run('get', [id]);
    expect(emu.gmail.unitsUsed(ME)).toBe(10);
    const calls = `function burst(n) { for (var i = 0; i < n; i++) Gmail.Users.Messages.list('me', {}); }`;
    const burst = withGmail({ gmailLatencyMs: 0, code: CODE + calls });
    burst.run('burst', [3000]);
    const e = burst.run('failure', ['list']);
    expect(e.details.code).toBe(429);
    expect(e.text).toContain('User-rate limit exceeded.  Retry after 2026-12-01T10:01:00.000Z');
    expect(e.details.errors[0].reason).toBe('userRateLimitExceeded');
    burst.advanceTime(60000);
    expect(burst.run('list')).toEqual({ resultSizeEstimate: 0 });
  });

  test('each call moves the virtual clock: gmailLatencyMs, or the cost model figures', () => {
    const plain = withGmail();
    plain.run('list');
    expect(plain.clock.now() - T0).toBe(50);
    const modelled = withGmail({ costModel: true });
    const id = deliver(modelled, { from: 'a@x.com' });
    modelled.run('list');
    modelled.run('get', [id]);
    expect(modelled.clock.now() - T0).toBe(COST_KINDS['gmail.list'] + COST_KINDS['gmail.get']);
    expect(modelled.stats.cost.byKind['gmail.get']).toEqual({ calls: 1, ms: COST_KINDS['gmail.get'] });
    expect(modelled.callCount('Gmail.Users.Messages.list')).toBe(1);
  });
});

test('Gmail calls count against the 6-minute limit of their execution', () => {
  const loop = `function scanForever() { for (;;) Gmail.Users.Messages.list('me', {}); }`;
  const emu = withGmail({ code: CODE + loop, gmailUnitsPerMinute: 1e9 });
  expect(() => emu.run('scanForever')).toThrow('Exceeded maximum execution time');
  expect(emu.clock.now() - T0).toBe(360000);
  // 7,200 calls fill the 6 minutes; the one under way when the limit passes ends the execution.
  expect(emu.callCount('Gmail.Users.Messages.list')).toBe(360000 / 50 + 1);
});

test('not from a custom function', () => {
  expect(() => withGmail().runCustomFunction('list', [])).toThrow(
    'You do not have permission to call Gmail.Users.Messages.list',
  );
});

describe('incoming mail', () => {
  test('the gmailIncoming source delivers what arrived since the last look, once', () => {
    const looks = [];
    const emu = withGmail({
      gmailLatencyMs: 0,
      gmailIncoming: (user, { sinceMs, nowMs }) => {
        looks.push([user, sinceMs, nowMs]);
        return [
          { from: 'reply.a@x.com', subject: 'Re: Hi', messageId: '<r1@x.com>', date: T0 - HOUR },
          { from: 'later@x.com', subject: 'Not yet', messageId: '<r2@x.com>', date: T0 + HOUR },
        ];
      },
    });
    expect(emu.run('list').messages).toHaveLength(1);
    expect(emu.run('list').messages).toHaveLength(1);
    expect(looks[0]).toEqual([ME, 0, T0]);
    expect(looks[1][1]).toBe(looks[0][2]);
    emu.advanceTime(2 * HOUR);
    expect(emu.run('list').messages).toHaveLength(2);
  });
});
