'use strict';
// Everything the sandbox remembers, in one object that reset() re-initialises in place (so references handed
// out by startSandbox stay valid). All times come from the shared Clock; delivery states are derived lazily
// from it when read, so advancing a virtual clock moves every task and mail at once.

const { generateDataset, withBounces } = require('./data');
const {
  OUTREACH_ACCOUNTS,
  PHONE_ACCOUNTS,
  MONTHLY_VALIDITY_MS,
  RATE_LIMITS,
  TIMINGS,
  PHONE_HTTP_STATUS,
} = require('./rules');
const { iso } = require('./util');

const REQUEST_LOG_LIMIT = 10000;
const FAULT_KINDS = ['status', 'phone-code', 'delay', 'malformed', 'drop', 'lost-response'];

class SandboxState {
  /** @param {{clock: import('../clock').Clock, seed?: number, taskShape?: string, bounces?: boolean}} options */
  constructor({ clock, seed = 42, taskShape = 'per-request', bounces = false }) {
    this.clock = clock;
    this.seed = seed;
    this.setTaskShape(taskShape);
    /** The shape given at start: reset() goes back to it. */
    this.initialTaskShape = taskShape;
    const dataset = bounces ? withBounces(generateDataset(seed)) : generateDataset(seed);
    this.companies = dataset.companies;
    this.byDomain = dataset.byDomain;
    this.byHashId = dataset.byHashId;
    this.fixtures = dataset.fixtures;
    this.startedAt = clock.now();
    this.reset();
  }

  now() {
    return this.clock.now();
  }

  /** Back to the initial accounts and balances: no tasks, no unlocks, no rate history, no faults, no stats. */
  reset() {
    const now = this.now();
    if (this.initialTaskShape) this.taskShape = this.initialTaskShape;
    this.accounts = {};
    for (const [key, template] of Object.entries(OUTREACH_ACCOUNTS)) {
      this.accounts[key] = {
        key,
        revoked: false,
        dailyQuotaExhausted: false,
        ...template,
        monthlyExpiresAt: now + MONTHLY_VALIDITY_MS,
        unlocked: new Map(), // domain -> { firstAt, lastChargedAt }
      };
    }
    this.phoneAccounts = {};
    for (const [key, template] of Object.entries(PHONE_ACCOUNTS))
      this.phoneAccounts[key] = { key, ...template };
    this.tasks = new Map();
    this.mails = new Map();
    this.nextTaskId = 1001;
    this.nextMailId = 50001;
    this.unlockLog = [];
    this.phoneChecks = [];
    this.requestLog = [];
    this.rateWindows = new Map();
    this.faults = [];
    this.nextFaultId = 1;
    this.stats = {
      total: 0,
      requests: {}, // key -> path -> count (every request received, faulted ones included)
      rateLimited: { outreach: 0, phone: 0 }, // 429 rate-limit answers and phone 1005 answers
      quotaExceeded: 0,
      insufficient: { outreach: 0, phone: 0 }, // 402 answers and phone 1004 answers
      faultsInjected: 0,
      attributionViolations: 0, // X-Svc-* headers carrying the API key or an email address
      charged: { points: {}, edm: {}, phoneCredits: {} }, // key -> units charged
    };
  }

  // ------------------------------------------------------------------------------------------ statistics

  countRequest(key, path) {
    const k = key || '(none)';
    this.stats.total++;
    const perKey = (this.stats.requests[k] ||= {});
    perKey[path] = (perKey[path] || 0) + 1;
  }

  /**
   * Records a service request (capped at REQUEST_LOG_LIMIT entries, oldest dropped) with its X-Svc-*
   * attribution headers; flags attribution headers that carry the API key or an email address.
   * The returned entry gets `status` (or `outcome`) once answered.
   */
  logRequest({ service, method, path, search, key, headers }) {
    const attribution = {};
    let violation = null;
    for (const [name, value] of Object.entries(headers)) {
      if (!name.startsWith('x-svc-')) continue;
      const text = Array.isArray(value) ? value.join(',') : String(value);
      attribution[name] = text;
      if (key && text.includes(key)) violation = `${name} carries the API key`;
      else if (/[^\s@]+@[^\s@]+\.[^\s@]+/.test(text)) violation = `${name} carries an email address`;
    }
    if (violation) this.stats.attributionViolations++;
    const entry = { at: iso(this.now()), service, method, path, search, key: key || null, attribution };
    if (violation) entry.attributionViolation = violation;
    this.requestLog.push(entry);
    if (this.requestLog.length > REQUEST_LOG_LIMIT) this.requestLog.shift();
    return entry;
  }

  addCharge(kind, key, amount) {
    const bucket = this.stats.charged[kind];
    bucket[key] = (bucket[key] || 0) + amount;
  }

  // ---------------------------------------------------------------------------------------------- billing

  /** Balance as the API shows it: monthly buckets read 0 once the clock passes monthlyExpiresAt. */
  balanceOf(account) {
    const expired = this.now() >= account.monthlyExpiresAt;
    return {
      userId: account.userId,
      monthlyPoints: expired ? 0 : account.monthlyPoints,
      monthlyEdm: expired ? 0 : account.monthlyEdm,
      monthlyExpiresAt: iso(account.monthlyExpiresAt),
      addonPoints: account.addonPoints,
      addonEdm: account.addonEdm,
    };
  }

  /**
   * Deducts `amount` of `unit` ('Points' | 'Edm'): monthly bucket first, then add-on. All or nothing: when both
   * together are short nothing changes and `{ ok: false, available }` is returned.
   */
  charge(account, unit, amount) {
    const balance = this.balanceOf(account);
    const monthly = balance[`monthly${unit}`];
    const addon = balance[`addon${unit}`];
    if (monthly + addon < amount) return { ok: false, required: amount, available: monthly + addon };
    const fromMonthly = Math.min(monthly, amount);
    account[`monthly${unit}`] -= fromMonthly;
    account[`addon${unit}`] -= amount - fromMonthly;
    this.addCharge(unit === 'Points' ? 'points' : 'edm', account.key, amount);
    return { ok: true, fromMonthly, fromAddon: amount - fromMonthly };
  }

  // ------------------------------------------------------------------------------------------- rate limits

  /** Rolling window: records the request and answers ok, or answers how long until a slot frees. */
  takeRateSlot(service, key) {
    const { limit, windowMs } = RATE_LIMITS[service];
    const now = this.now();
    const id = `${service}:${key}`;
    let times = this.rateWindows.get(id);
    if (!times) this.rateWindows.set(id, (times = []));
    while (times.length && times[0] <= now - windowMs) times.shift();
    if (times.length >= limit) {
      const freeAt = times[0] + windowMs;
      return {
        ok: false,
        limit,
        remaining: 0,
        retryAfterS: Math.max(1, Math.ceil((freeAt - now) / 1000)),
        freeAt,
      };
    }
    times.push(now);
    return { ok: true, limit, remaining: limit - times.length };
  }

  // ------------------------------------------------------------------------------------------------ faults

  addFault(spec) {
    if (!spec || typeof spec !== 'object') throw new Error('body must be a JSON object');
    const { path, method, kind, service } = spec;
    if (typeof path !== 'string' || !path.startsWith('/'))
      throw new Error('path must be a string starting with /');
    if (!FAULT_KINDS.includes(kind)) throw new Error(`kind must be one of ${FAULT_KINDS.join(', ')}`);
    if (method != null && typeof method !== 'string') throw new Error('method must be a string');
    if (service != null && service !== 'outreach' && service !== 'phone') {
      throw new Error('service must be "outreach" or "phone"');
    }
    const count = spec.count == null ? 1 : spec.count;
    if (!Number.isInteger(count) || count < 1) throw new Error('count must be a positive integer');
    const fault = {
      id: this.nextFaultId++,
      path: path.split('?')[0],
      method: method ? method.toUpperCase() : null,
      service: service || null,
      kind,
      remaining: count,
    };
    if (kind === 'status') {
      if (!Number.isInteger(spec.status) || spec.status < 400 || spec.status > 599) {
        throw new Error('status must be an HTTP error status (429, 500, 502, 503...)');
      }
      fault.status = spec.status;
      if (spec.slug != null) fault.slug = String(spec.slug);
      if (spec.retryAfter != null) fault.retryAfter = Number(spec.retryAfter);
      if (spec.code != null) fault.code = Number(spec.code);
      if (spec.echoKey === true) fault.echoKey = true;
    }
    if (kind === 'phone-code') {
      if (!PHONE_HTTP_STATUS[spec.code]) throw new Error('code must be a phone failure code 1000..1007');
      fault.code = spec.code;
    }
    if (kind === 'delay') {
      if (!Number.isFinite(spec.delayMs) || spec.delayMs < 0 || spec.delayMs > 120000) {
        throw new Error('delayMs must be a number of real milliseconds, 0..120000');
      }
      fault.delayMs = spec.delayMs;
      // On the shared clock instead of real time: a slow service in the playground without the wait.
      if (spec.serviceTime === true) fault.serviceTime = true;
      if (fault.serviceTime && Number.isFinite(spec.realMs) && spec.realMs > 0)
        fault.realMs = Math.min(spec.realMs, 5000);
    }
    if (kind === 'malformed') fault.processed = spec.processed === true;
    this.faults.push(fault);
    return { ...fault };
  }

  /** Consumes one use of the first fault matching the request, if any. */
  takeFault(service, method, path) {
    const fault = this.faults.find(
      (f) =>
        f.remaining > 0 &&
        (!f.service || f.service === service) &&
        (!f.method || f.method === method) &&
        path.startsWith(f.path),
    );
    if (!fault) return null;
    fault.remaining--;
    if (fault.remaining === 0) this.faults = this.faults.filter((f) => f !== fault);
    this.stats.faultsInjected++;
    return fault;
  }

  // ------------------------------------------------------------------------------------------------ mail

  /**
   * How a personalized send is grouped into tasks: 'per-request' (one task for the request's mails) or
   * 'per-mail' (one task per mail, each with the request's task_subject). Batch sends are one task either way.
   */
  setTaskShape(shape) {
    if (shape !== 'per-request' && shape !== 'per-mail')
      throw new Error("taskShape must be 'per-request' or 'per-mail'");
    this.taskShape = shape;
  }

  createTask({ key, kind, taskSubject, content, bodyFormat, mails }) {
    const now = this.now();
    const task = {
      taskId: this.nextTaskId++,
      key,
      kind,
      taskSubject,
      content,
      bodyFormat,
      createdAt: now,
      mailIds: [],
    };
    mails.forEach((m, index) => {
      const mail = { mailId: this.nextMailId++, taskId: task.taskId, key, index, createdAt: now, ...m };
      this.mails.set(mail.mailId, mail);
      task.mailIds.push(mail.mailId);
    });
    this.tasks.set(task.taskId, task);
    return task;
  }

  /** Derived delivery state of a mail at the current clock time (numbers in ms, or null). */
  mailState(mail, now = this.now()) {
    const t = mail.createdAt;
    const resolveAt = t + TIMINGS.firstResolveMs + mail.index * TIMINGS.perMailMs;
    const out = {
      status: 'pending',
      sentAt: null,
      callbackReceivedAt: null,
      failureReason: null,
      opened: false,
    };
    if (now < t + TIMINGS.pendingMs) return out;
    if (now < resolveAt) return { ...out, status: 'requested' };
    if (mail.outcome.fails) return { ...out, status: 'failed', failureReason: mail.outcome.failureReason };
    const callbackAt = resolveAt + TIMINGS.callbackDelayMs;
    return {
      ...out,
      status: 'sent',
      sentAt: resolveAt,
      callbackReceivedAt: now >= callbackAt ? callbackAt : null,
      opened: mail.outcome.opens && now >= resolveAt + TIMINGS.openDelayMs,
    };
  }

  /** Mail record (spec 2.7); `detail` adds content and bodyFormat. */
  mailRecord(mail, detail = false, now = this.now()) {
    const s = this.mailState(mail, now);
    const record = {
      mailId: mail.mailId,
      taskId: mail.taskId,
      recipientEmail: mail.recipientEmail,
      recipientNickname: mail.recipientNickname,
      subject: mail.subject,
      status: s.status,
      sentAt: iso(s.sentAt),
      callbackReceivedAt: iso(s.callbackReceivedAt),
      failureReason: s.failureReason,
    };
    if (detail) Object.assign(record, { content: mail.content, bodyFormat: mail.bodyFormat });
    return record;
  }

  /** Derived task state: pending [t, t+2s), requested [t+2s, t+10s), then completed | partial | failed. */
  taskState(task, now = this.now()) {
    let sent = 0;
    let failed = 0;
    let opened = 0;
    for (const id of task.mailIds) {
      const s = this.mailState(this.mails.get(id), now);
      if (s.status === 'sent') sent++;
      if (s.status === 'failed') failed++;
      if (s.opened) opened++;
    }
    const t = task.createdAt;
    let status = 'pending';
    let completedAt = null;
    if (now >= t + TIMINGS.taskFinalMs) {
      status = failed === 0 ? 'completed' : sent === 0 ? 'failed' : 'partial';
      completedAt = t + TIMINGS.taskFinalMs;
    } else if (now >= t + TIMINGS.pendingMs) {
      status = 'requested';
    }
    return { status, sent, failed, opened, completedAt };
  }

  /** Task record (spec 2.6); `detail` adds content, bodyFormat and mails. */
  taskRecord(task, detail = false, now = this.now()) {
    const s = this.taskState(task, now);
    const record = {
      taskId: task.taskId,
      totalCount: task.mailIds.length,
      status: s.status,
      sentCount: s.sent,
      failedCount: s.failed,
      openedCount: s.opened,
      taskSubject: task.taskSubject,
      createdAt: iso(task.createdAt),
      completedAt: iso(s.completedAt),
    };
    if (detail) {
      Object.assign(record, {
        content: task.content,
        bodyFormat: task.bodyFormat,
        mails: task.mailIds.map((id) => this.mailRecord(this.mails.get(id), false, now)),
      });
    }
    return record;
  }

  // -------------------------------------------------------------------------------------- control views

  accountsView() {
    const outreach = {};
    for (const [key, a] of Object.entries(this.accounts)) {
      outreach[key] = {
        ...this.balanceOf(a),
        plan: a.plan,
        revoked: a.revoked,
        dailyQuotaExhausted: a.dailyQuotaExhausted,
        dailySendLimit: a.dailySendLimit == null ? null : a.dailySendLimit,
        sentToday: a.sentToday || 0,
        storedMonthlyPoints: a.monthlyPoints,
        storedMonthlyEdm: a.monthlyEdm,
        unlockedDomains: a.unlocked.size,
      };
    }
    const phone = {};
    for (const [key, a] of Object.entries(this.phoneAccounts)) phone[key] = { credits: a.credits };
    return { now: iso(this.now()), outreach, phone };
  }

  /** Changes an account (playground and tests): balances, plan, revoked, dailyQuotaExhausted, credits. */
  patchAccount(patch) {
    if (!patch || typeof patch.key !== 'string') throw new Error('key is required');
    const { key, ...fields } = patch;
    const ints = ['monthlyPoints', 'addonPoints', 'monthlyEdm', 'addonEdm', 'credits'];
    for (const f of ints) {
      if (f in fields && (!Number.isInteger(fields[f]) || fields[f] < 0)) {
        throw new Error(`${f} must be a non-negative integer`);
      }
    }
    if (key in this.phoneAccounts || 'credits' in fields) {
      const account = (this.phoneAccounts[key] ||= { key, credits: 0 });
      if ('credits' in fields) account.credits = fields.credits;
      return;
    }
    const account = (this.accounts[key] ||= {
      key,
      userId: `usr_${key.replace(/\W+/g, '_')}`,
      plan: 'paid',
      revoked: false,
      dailyQuotaExhausted: false,
      monthlyPoints: 0,
      addonPoints: 0,
      monthlyEdm: 0,
      addonEdm: 0,
      monthlyExpiresAt: this.now() + MONTHLY_VALIDITY_MS,
      unlocked: new Map(),
    });
    for (const f of ['monthlyPoints', 'addonPoints', 'monthlyEdm', 'addonEdm'])
      if (f in fields) account[f] = fields[f];
    if ('plan' in fields) {
      if (fields.plan !== 'paid' && fields.plan !== 'free') throw new Error('plan must be "paid" or "free"');
      account.plan = fields.plan;
    }
    if ('revoked' in fields) account.revoked = Boolean(fields.revoked);
    if ('dailyQuotaExhausted' in fields) account.dailyQuotaExhausted = Boolean(fields.dailyQuotaExhausted);
    if ('dailySendLimit' in fields) {
      const limit = fields.dailySendLimit;
      if (limit !== null && (!Number.isInteger(limit) || limit < 0))
        throw new Error('dailySendLimit must be a non-negative integer or null');
      account.dailySendLimit = limit;
      account.sentDay = Math.floor(this.now() / (24 * 3600 * 1000));
      account.sentToday = 0;
    }
    if ('monthlyExpiresAt' in fields) {
      const ms =
        typeof fields.monthlyExpiresAt === 'number'
          ? fields.monthlyExpiresAt
          : Date.parse(fields.monthlyExpiresAt);
      if (!Number.isFinite(ms)) throw new Error('monthlyExpiresAt must be an ISO timestamp or epoch ms');
      account.monthlyExpiresAt = ms;
    }
  }

  mailsOf(key) {
    const now = this.now();
    return [...this.mails.values()]
      .filter((m) => !key || m.key === key)
      .map((m) => ({ key: m.key, createdAt: iso(m.createdAt), ...this.mailRecord(m, true, now) }));
  }
}

module.exports = { SandboxState, FAULT_KINDS };
