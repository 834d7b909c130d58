'use strict';
// The Gmail advanced service (Gmail API v1 through Apps Script): Users.Messages.list and .get over one
// in-memory mailbox per user, with Gmail's search language (gmail-query.js), its formats, its errors as Apps
// Script throws them (GoogleJsonResponseException), its per-user quota and the OAuth scopes it needs.
// Present only when the manifest enables it. Sources: README.md, "Gmail advanced service".
const { AppsScriptError } = require('./errors');
const { instrument } = require('./execution');
const { buildRequest } = require('./url-fetch');
const { parseQuery, matches, reachesSpamTrash, unknownOperators, QueryError } = require('./gmail-query');
const { toRfc822, messageResource, snippetOf } = require('./gmail-message');

const SCOPE = {
  full: 'https://mail.google.com/',
  modify: 'https://www.googleapis.com/auth/gmail.modify',
  readonly: 'https://www.googleapis.com/auth/gmail.readonly',
  metadata: 'https://www.googleapis.com/auth/gmail.metadata',
};
/** Quota units per method (Gmail API "Usage limits": messages.list 5, messages.get 5). */
const QUOTA_UNITS = { list: 5, get: 5 };
/** Per-user rate limit (Gmail API "Usage limits": 15,000 quota units per user per minute). */
const USER_UNITS_PER_MINUTE = 15000;
const MINUTE_MS = 60000;
const MAX_RESULTS = 500;
const DEFAULT_RESULTS = 100;
const FORMATS = ['minimal', 'full', 'raw', 'metadata'];

/** An advanced-service call's error, as Apps Script throws it (name, message and `details`). */
class GoogleJsonResponseException extends AppsScriptError {
  constructor(method, code, message, reason, domain = 'global') {
    super(`API call to gmail.users.messages.${method} failed with error: ${message}`);
    this.name = 'GoogleJsonResponseException';
    this.details = { code, message, errors: [{ message, domain, reason }] };
  }
}

/** The manifest's name for the Gmail advanced service (its userSymbol), or null when it is not enabled. */
function gmailSymbol(manifest) {
  const list = manifest && manifest.dependencies && manifest.dependencies.enabledAdvancedServices;
  if (!Array.isArray(list)) return null;
  const entry = list.find((s) => s && s.serviceId === 'gmail' && s.version === 'v1');
  return entry ? entry.userSymbol || 'Gmail' : null;
}

/** The address of a From value ("Ann <ann@acme.com>" → ann@acme.com). */
function addressIn(from) {
  const text = String(from || '');
  const angle = /<([^<>]*)>/.exec(text);
  return (angle ? angle[1] : text).trim();
}

/**
 * The Authentication-Results header Gmail's MX writes (RFC 8601: authserv-id, then method=result): SPF of the
 * envelope sender (the HELO name for the null sender), DKIM and DMARC of the From domain. `verdicts`: the
 * results to write ('pass' unless a test says otherwise: the emulator has no DNS to check them against).
 */
function authenticationResults(from, sender, verdicts = {}) {
  const domain = addressIn(from).split('@')[1] || 'unknown.invalid';
  const { spf = 'pass', dkim = 'pass', dmarc = 'pass' } = verdicts;
  const mailFrom = sender ? `smtp.mailfrom=${sender}` : `smtp.helo=mail.${domain}`;
  return [
    'mx.google.com',
    ` dkim=${dkim} header.i=@${domain}`,
    ` spf=${spf} (google.com: domain of ${sender || 'the null sender'}) ${mailFrom}`,
    ` dmarc=${dmarc} (p=NONE sp=NONE dis=NONE) header.from=${domain}`,
  ].join(';');
}

/** Message ids grow with time as Gmail's do (hex), so sorting by id is sorting by arrival. */
function messageId(internalDate, seq) {
  return (BigInt(internalDate) * 4096n + BigInt(seq % 4096)).toString(16);
}

/**
 * Every user's mailbox, the per-user quota, and the source of incoming mail. Test side:
 * `emu.gmail.deliver(user, {...})`, `emu.gmail.messages(user)`, `emu.gmail.incoming = fn`.
 */
class GmailMailboxes {
  constructor(emu, { incoming = null, unitsPerMinute = USER_UNITS_PER_MINUTE, queryMaxChars = null } = {}) {
    this.emu = emu;
    /** A limit on `q`'s length (none by default: Gmail documents none). */
    this.queryMaxChars = queryMaxChars;
    /** (userEmail, { sinceMs, nowMs, getJson }) => messages to deliver (deliver()'s shape); see README. */
    this.incoming = incoming;
    this.unitsPerMinute = unitsPerMinute;
    this.boxes = new Map();
    this.usage = new Map();
    this.pulledUntil = new Map();
    this.seq = 0;
  }

  _box(user) {
    const key = String(user).toLowerCase();
    if (!this.boxes.has(key)) this.boxes.set(key, []);
    return this.boxes.get(key);
  }

  /**
   * Puts a message into `user`'s mailbox and answers its stored form. `mail`: { from, to, cc, subject,
   * date (ms, default now), body (text), html, headers: { Name: value }, labelIds (default INBOX, UNREAD),
   * messageId, inReplyTo, references, returnPath (the envelope sender, default the From address; '' for the
   * null sender `<>`), authentication ({ spf, dkim, dmarc }: Gmail's verdicts, 'pass' by default),
   * contentType and parts ([{ mimeType, body }]: a multipart message, e.g. a delivery report) }. Gmail's
   * trace headers (Delivered-To, Return-Path, Authentication-Results) go on top, as Gmail adds them. A
   * message whose Message-ID is already there is not stored twice.
   */
  deliver(user, mail) {
    const box = this._box(user);
    const internalDate = Number.isFinite(mail.date) ? mail.date : this.emu.clock.now();
    const id = messageId(internalDate, ++this.seq);
    const msgId = mail.messageId || `<${id}.emulated@mail.gmail.com>`;
    const existing = box.find((m) => m.messageId === msgId);
    if (existing) return existing;
    const parent = mail.inReplyTo && box.find((m) => m.messageId === mail.inReplyTo);
    const sender = mail.returnPath === undefined ? addressIn(mail.from) : mail.returnPath;
    const headers = [
      ['Delivered-To', user],
      ['Return-Path', `<${sender}>`],
      ['Authentication-Results', authenticationResults(mail.from, sender, mail.authentication)],
      ['From', mail.from],
      ['To', mail.to || user],
      ['Cc', mail.cc],
      ['Subject', mail.subject || ''],
      ['Date', new Date(internalDate).toUTCString().replace('GMT', '+0000')],
      ['Message-ID', msgId],
      ['In-Reply-To', mail.inReplyTo],
      ['References', mail.references || mail.inReplyTo],
      ...Object.entries(mail.headers || {}),
    ]
      .filter(([, value]) => value !== undefined && value !== null && value !== '')
      .map(([name, value]) => ({ name, value: String(value) }));
    const stored = {
      id,
      threadId: parent ? parent.threadId : id,
      labelIds: (mail.labelIds || ['INBOX', 'UNREAD']).slice(),
      internalDate,
      headers,
      body: String(mail.body || ''),
      html: mail.html ? String(mail.html) : null,
      contentType: mail.contentType || null,
      parts: (mail.parts || []).map((p) => ({ mimeType: String(p.mimeType), body: String(p.body || '') })),
      messageId: msgId,
      historyId: String(1000 + this.seq),
    };
    const text = stored.parts.find((p) => p.mimeType === 'text/plain');
    stored.snippet = snippetOf(stored.body || (text && text.body) || stored.html || '');
    stored.sizeEstimate = Buffer.byteLength(toRfc822(stored));
    box.push(stored);
    return stored;
  }

  /** The messages of `user`'s mailbox, oldest first (test side). */
  messages(user) {
    return this._box(user).slice();
  }

  /** Quota units `user` spent in the last minute. */
  unitsUsed(user, now = this.emu.clock.now()) {
    return (this.usage.get(user) || [])
      .filter((u) => u.atMs > now - MINUTE_MS)
      .reduce((a, u) => a + u.units, 0);
  }

  /** Takes `units` of `user`'s per-minute quota, or throws Gmail's 429. */
  _take(user, method, units) {
    const now = this.emu.clock.now();
    const recent = (this.usage.get(user) || []).filter((u) => u.atMs > now - MINUTE_MS);
    const used = recent.reduce((a, u) => a + u.units, 0);
    if (used + units > this.unitsPerMinute) {
      this.usage.set(user, recent);
      let freed = used + units - this.unitsPerMinute;
      const retryAt = recent.find((u) => (freed -= u.units) <= 0).atMs + MINUTE_MS;
      const message = `User-rate limit exceeded.  Retry after ${new Date(retryAt).toISOString()}`;
      throw new GoogleJsonResponseException(method, 429, message, 'userRateLimitExceeded', 'usageLimits');
    }
    recent.push({ atMs: now, units });
    this.usage.set(user, recent);
  }

  /** Delivers what arrived for `user` since the last look (the `incoming` source). */
  _pull(user) {
    if (typeof this.incoming !== 'function') return;
    const nowMs = this.emu.clock.now();
    const sinceMs = this.pulledUntil.get(user) || 0;
    const arrived = this.incoming(user, { sinceMs, nowMs, getJson: (url) => this._getJson(url) }) || [];
    for (const mail of arrived) {
      if (!Number.isFinite(mail.date) || mail.date <= nowMs) this.deliver(user, mail);
    }
    this.pulledUntil.set(user, nowMs);
  }

  /** A GET through the emulator's synchronous fetch worker (not the script's UrlFetch: not counted). */
  _getJson(url) {
    const [res] = this.emu._fetcher().run([buildRequest(url, {}, { timeoutMs: 10000 })], 10000);
    if (!res.ok || res.status !== 200) {
      throw new Error(`gmail incoming: GET ${url} failed (${res.ok ? res.status : res.message})`);
    }
    return JSON.parse(Buffer.from(res.body).toString('utf8'));
  }
}

/* ------------------------------------------------------------------ the script's Gmail.Users.Messages */

class GmailUsersMessages {
  constructor(env) {
    this._env = env;
  }

  _user() {
    const { emu, exec } = this._env;
    return exec ? exec.effectiveUser : emu.users.active;
  }

  /** Scope, user id, latency and quota of one call; answers the caller's scopes ('metadata' or 'read'). */
  _begin(method, userId) {
    const { emu, exec } = this._env;
    const user = this._user();
    const read = [SCOPE.full, SCOPE.modify, SCOPE.readonly].some((s) => emu._hasScope(s));
    const meta = emu._hasScope(SCOPE.metadata);
    if (!read && !meta) {
      throw new GoogleJsonResponseException(
        method,
        403,
        'Request had insufficient authentication scopes.',
        'insufficientPermissions',
      );
    }
    if (userId !== 'me' && String(userId).toLowerCase() !== String(user).toLowerCase()) {
      throw new GoogleJsonResponseException(method, 403, `Delegation denied for ${user}`, 'forbidden');
    }
    if (exec) {
      emu.gmail._take(user, method, QUOTA_UNITS[method]);
      const ms = emu._gmailLatency(method);
      emu._chargeTime(`gmail.${method}`, ms);
      exec.spend(ms);
    }
    // New mail shows in a list; a get reads an id a list gave (a message not delivered yet has none).
    if (method === 'list') emu.gmail._pull(user);
    return { user, scope: read ? 'read' : 'metadata' };
  }

  list(userId, optionalArgs) {
    const args = optionalArgs || {};
    const { user, scope } = this._begin('list', userId);
    const emu = this._env.emu;
    if (scope === 'metadata' && args.q) {
      throw new GoogleJsonResponseException(
        'list',
        403,
        "Metadata scope does not support 'q' parameter",
        'forbidden',
      );
    }
    const maxChars = emu.gmail.queryMaxChars;
    if (maxChars && String(args.q || '').length > maxChars) {
      // Gmail documents no limit: a test sets one to prove the add-on keeps its queries within it.
      const message = `Query too long (the emulator's gmailQueryMaxChars is ${maxChars}; Gmail documents none)`;
      throw new GoogleJsonResponseException('list', 400, message, 'invalidArgument');
    }
    let tree;
    try {
      tree = parseQuery(args.q);
    } catch (e) {
      if (!(e instanceof QueryError)) throw e;
      throw new GoogleJsonResponseException('list', 400, 'Invalid query', 'invalidArgument');
    }
    for (const op of unknownOperators(tree)) {
      emu.warnings.push(`Gmail: the operator "${op}:" is not modelled; the emulator reads it as words`);
    }
    const labels = [].concat(args.labelIds || []).map(String);
    const spamTrash = args.includeSpamTrash === true || reachesSpamTrash(tree);
    const ctx = { userEmail: user, nowMs: emu.clock.now() };
    const found = emu.gmail
      ._box(user)
      .filter((m) => spamTrash || !m.labelIds.some((l) => l === 'SPAM' || l === 'TRASH'))
      .filter((m) => labels.every((l) => m.labelIds.includes(l)))
      .filter((m) => matches(tree, m, ctx))
      .sort((a, b) => b.internalDate - a.internalDate || (b.id < a.id ? -1 : 1));
    return page(found, args);
  }

  get(userId, id, optionalArgs) {
    const args = optionalArgs || {};
    const { user, scope } = this._begin('get', userId);
    const format = String(args.format || 'full').toLowerCase();
    if (!FORMATS.includes(format)) {
      throw new GoogleJsonResponseException(
        'get',
        400,
        `Invalid value for format: ${args.format}`,
        'invalid',
      );
    }
    if (scope === 'metadata' && (format === 'full' || format === 'raw')) {
      throw new GoogleJsonResponseException(
        'get',
        403,
        `Metadata scope doesn't allow format ${format.toUpperCase()}`,
        'forbidden',
      );
    }
    if (!/^[0-9a-f]{1,24}$/i.test(String(id))) {
      throw new GoogleJsonResponseException('get', 400, 'Invalid id value', 'invalidArgument');
    }
    const m = this._env.emu.gmail._box(user).find((x) => x.id === String(id).toLowerCase());
    if (!m) {
      throw new GoogleJsonResponseException('get', 404, 'Requested entity was not found.', 'notFound');
    }
    return messageResource(m, format, [].concat(args.metadataHeaders || []).map(String));
  }
}

/** One page of `found` (newest first) after the pageToken's cursor. */
function page(found, args) {
  let max = args.maxResults === undefined ? DEFAULT_RESULTS : Number(args.maxResults);
  if (!Number.isInteger(max) || max < 0) {
    throw new GoogleJsonResponseException('list', 400, 'Invalid maxResults', 'invalidArgument');
  }
  max = Math.min(max || DEFAULT_RESULTS, MAX_RESULTS);
  let start = 0;
  if (args.pageToken) {
    const cursor = decodeToken(args.pageToken);
    start = found.findIndex(
      (m) => m.internalDate < cursor.t || (m.internalDate === cursor.t && m.id < cursor.id),
    );
    if (start === -1) start = found.length;
  }
  const slice = found.slice(start, start + max);
  const out = {};
  if (slice.length) out.messages = slice.map((m) => ({ id: m.id, threadId: m.threadId }));
  if (start + max < found.length) {
    const last = slice[slice.length - 1];
    out.nextPageToken = Buffer.from(`p1:${last.internalDate}:${last.id}`).toString('base64url');
  }
  out.resultSizeEstimate = found.length;
  return out;
}

function decodeToken(token) {
  const m = Buffer.from(String(token), 'base64url')
    .toString('utf8')
    .match(/^p1:(\d+):([0-9a-f]+)$/);
  if (!m) throw new GoogleJsonResponseException('list', 400, 'Invalid pageToken', 'invalidArgument');
  return { t: Number(m[1]), id: m[2] };
}

/** Advanced services need an authorized execution: none in AuthMode.NONE / LIMITED or a custom function. */
function guard(exec, name) {
  if (exec.authMode !== 'FULL') {
    throw new AppsScriptError(
      `You do not have permission to call Gmail.Users.Messages.${name}. Required permissions: ${SCOPE.readonly}`,
    );
  }
}

instrument(GmailUsersMessages, { label: 'Gmail.Users.Messages', group: 'gmail', guard });

/** The `Gmail` global of one execution. */
function createGmailService(env) {
  return { Users: { Messages: new GmailUsersMessages(env) } };
}

module.exports = {
  GmailMailboxes,
  GoogleJsonResponseException,
  createGmailService,
  gmailSymbol,
  GMAIL_SCOPES: SCOPE,
  QUOTA_UNITS,
  USER_UNITS_PER_MINUTE,
};
