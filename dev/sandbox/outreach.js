'use strict';
// The prospecting and email outreach service (docs/services.md). handleOutreach(state, ctx) is a pure
// request -> response function; the HTTP plumbing, faults and controls live in server.js.

const { searchRow } = require('./data');
const {
  UNLOCK_FREE_WINDOW_MS,
  ISO_COUNTRIES,
  isValidEmail,
  cleanTaskSubject,
  substituteVariables,
  mailOutcome,
  keyEcho,
} = require('./rules');
const { charCount, isPlainObject, iso, DAY } = require('./util');

const RETIRED_PATH = '/api/v1/contacts/search';
const BALANCE_PATH = '/api/v1/credit/balance';
const PROFILE_EMAILS_PATH = '/api/v1/companies/{companyHashId}/profileEmails';

const TITLES = {
  'bad-request': 'Bad Request',
  unauthorized: 'Unauthorized',
  'insufficient-credits': 'Insufficient Credits',
  forbidden: 'Forbidden',
  'not-found': 'Not Found',
  'method-not-allowed': 'Method Not Allowed',
  'payload-too-large': 'Payload Too Large',
  'rate-limit': 'Too Many Requests',
  'quota-exceeded': 'Quota Exceeded',
  'internal-error': 'Internal Server Error',
  'upstream-error': 'Upstream Error',
  'service-unavailable': 'Service Unavailable',
  contact_search_retired: 'Gone',
};

const SLUG_BY_STATUS = {
  400: 'bad-request',
  401: 'unauthorized',
  402: 'insufficient-credits',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  413: 'payload-too-large',
  429: 'rate-limit',
  500: 'internal-error',
  502: 'upstream-error',
  503: 'service-unavailable',
};

class ProblemError extends Error {
  constructor(status, slug, detail, { headers, extra } = {}) {
    super(detail);
    this.status = status;
    this.slug = slug;
    this.headers = headers;
    this.extra = extra;
  }
}

const bad = (detail) => new ProblemError(400, 'bad-request', detail);
const notFound = (detail) => new ProblemError(404, 'not-found', detail);

/** RFC 7807 response. */
function problem(ctx, status, slug, detail, { headers, extra } = {}) {
  return {
    status,
    contentType: 'application/problem+json',
    headers,
    json: {
      type: `${ctx.baseUrl}/errors/${slug}`,
      title: TITLES[slug] || 'Error',
      status,
      detail,
      instance: ctx.path,
      ...extra,
    },
  };
}

const ok = (json, status = 200) => ({ status, json });

// ------------------------------------------------------------------------------------------ input helpers

function jsonBody(ctx) {
  if (!ctx.rawBody || !ctx.rawBody.trim()) throw bad('Request body must be a JSON object');
  let body;
  try {
    body = JSON.parse(ctx.rawBody);
  } catch {
    throw bad('Request body is not valid JSON');
  }
  if (!isPlainObject(body)) throw bad('Request body must be a JSON object');
  return body;
}

/** A query parameter; an empty value counts as absent. */
const param = (ctx, name) => {
  const v = ctx.query.get(name);
  return v === null || v === '' ? null : v;
};

function intParam(ctx, name, { def, min, max }) {
  const raw = param(ctx, name);
  if (raw === null) return def;
  if (!/^\d+$/.test(raw)) throw bad(`${name} must be an integer`);
  const n = Number(raw);
  if (n < min || (max != null && n > max)) {
    throw bad(max != null ? `${name} must be between ${min} and ${max}` : `${name} must be at least ${min}`);
  }
  return n;
}

function enumParam(ctx, name, allowed, def) {
  const raw = param(ctx, name);
  if (raw === null) return def;
  if (!allowed.includes(raw)) throw bad(`${name} must be one of ${allowed.join(', ')}`);
  return raw;
}

function listParam(ctx, name, allowed) {
  const raw = param(ctx, name);
  if (raw === null) return null;
  const values = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const v of values) {
    if (allowed && !allowed.includes(v))
      throw bad(`${name}: unknown value "${v}" (allowed: ${allowed.join(', ')})`);
  }
  return values;
}

function idListParam(ctx, name) {
  const values = listParam(ctx, name);
  if (values === null) return null;
  for (const v of values)
    if (!/^\d+$/.test(v)) throw bad(`${name} must be a comma-separated list of integers`);
  return new Set(values.map(Number));
}

function timeParam(ctx, name) {
  const raw = param(ctx, name);
  if (raw === null) return null;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms)) throw bad(`${name} must be an ISO 8601 timestamp`);
  return ms;
}

const pageOf = (items, page, pageSize) => items.slice((page - 1) * pageSize, page * pageSize);
const includesCI = (haystack, needle) => String(haystack).toLowerCase().includes(needle.toLowerCase());

// ------------------------------------------------------------------------------------------------ balance

function balance(state, ctx, account) {
  return ok(state.balanceOf(account));
}

// ------------------------------------------------------------------------------------------------- search

const SEARCH_FIELDS = [
  'companyTypeKeywords',
  'productKeywords',
  'industryKeywords',
  'includeCountry',
  'excludeCountry',
  'withEmails',
  'crossFieldOperator',
  'from',
  'size',
];

function stringArray(body, name) {
  const v = body[name];
  if (v == null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string'))
    throw bad(`${name} must be an array of strings`);
  return v;
}

function countryArray(body, name) {
  return stringArray(body, name).map((code, i) => {
    const upper = code.trim().toUpperCase();
    if (!ISO_COUNTRIES.has(upper))
      throw bad(`${name}[${i}] "${code}" is not an ISO 3166-1 alpha-2 country code`);
    return upper;
  });
}

function search(state, ctx) {
  const body = jsonBody(ctx);
  for (const field of Object.keys(body)) {
    if (!SEARCH_FIELDS.includes(field)) {
      throw bad(`Unsupported search field "${field}"; supported fields: ${SEARCH_FIELDS.join(', ')}`);
    }
  }
  const keywords = (name) =>
    stringArray(body, name)
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
  const fields = [
    [keywords('companyTypeKeywords'), 'company_type'],
    [keywords('productKeywords'), 'main_products'],
    [keywords('industryKeywords'), 'industry'],
  ].filter(([kws]) => kws.length);
  if (!fields.length) {
    throw bad('At least one of companyTypeKeywords, productKeywords, industryKeywords must be non-empty');
  }
  const include = countryArray(body, 'includeCountry');
  const exclude = countryArray(body, 'excludeCountry');
  if (body.withEmails != null && body.withEmails !== 0 && body.withEmails !== 1)
    throw bad('withEmails must be 0 or 1');
  let operator = 'AND';
  if (body.crossFieldOperator != null) {
    operator = typeof body.crossFieldOperator === 'string' ? body.crossFieldOperator.toUpperCase() : '';
    if (operator !== 'AND' && operator !== 'OR') throw bad('crossFieldOperator must be AND or OR');
  }
  const from = body.from == null ? 0 : body.from;
  if (!Number.isInteger(from) || from < 0) throw bad('from must be a non-negative integer');
  const size = body.size == null ? 10 : body.size;
  if (!Number.isInteger(size) || size < 1 || size > 50) throw bad('size must be an integer between 1 and 50');

  const matchesField = (c, [kws, prop]) => kws.some((k) => c[prop].some((v) => v.toLowerCase().includes(k)));
  const hits = state.companies.filter(
    (c) =>
      (operator === 'OR'
        ? fields.some((f) => matchesField(c, f))
        : fields.every((f) => matchesField(c, f))) &&
      (!include.length || include.includes(c.country_code)) &&
      !exclude.includes(c.country_code) &&
      (body.withEmails !== 1 || c.email_count > 0),
  );
  return ok({ total: hits.length, list: hits.slice(from, from + size).map(searchRow) });
}

// ------------------------------------------------------------------------------------------------- unlock

function unlock(state, ctx, account) {
  const body = jsonBody(ctx);
  const { domain, countryCode } = body;
  if (typeof domain !== 'string' || !domain.trim())
    throw bad('domain is required (a string from a search row)');
  if (typeof countryCode !== 'string' || !countryCode.trim()) throw bad('countryCode is required');
  const cc = countryCode.trim().toUpperCase();
  if (!ISO_COUNTRIES.has(cc))
    throw bad(`countryCode "${countryCode}" is not an ISO 3166-1 alpha-2 country code`);
  const now = state.now();
  const entry = { key: account.key, domain, countryCode: cc, at: iso(now) };
  const company = state.byDomain.get(domain.trim().toLowerCase());
  if (!company || company.country_code !== cc) {
    state.unlockLog.push({ ...entry, status: 404, charged: false, alreadyViewed: false });
    throw notFound(`No company matches domain "${domain}" in country ${cc}`);
  }
  const previous = account.unlocked.get(company.domain);
  const withinWindow = Boolean(previous) && now - previous.lastChargedAt < UNLOCK_FREE_WINDOW_MS;
  if (!withinWindow) {
    const charge = state.charge(account, 'Points', 1);
    if (!charge.ok) {
      state.unlockLog.push({ ...entry, status: 402, charged: false, alreadyViewed: false });
      throw insufficient(state, ctx, 'search points', charge);
    }
    account.unlocked.set(company.domain, { firstAt: previous ? previous.firstAt : now, lastChargedAt: now });
  }
  const result = {
    companyHashId: company.companyHashId,
    companyName: company.company_name,
    charged: !withinWindow,
    alreadyViewed: withinWindow,
  };
  state.unlockLog.push({ ...entry, status: 200, ...result });
  return ok(result);
}

function insufficient(state, ctx, what, { required, available }) {
  state.stats.insufficient.outreach++;
  return new ProblemError(
    402,
    'insufficient-credits',
    `Insufficient ${what}: required ${required}, available ${available}. ` +
      `Buy a plan or an add-on pack at ${ctx.baseUrl}/pricing`,
    { extra: { required, available, pricing: `${ctx.baseUrl}/pricing` } },
  );
}

// ------------------------------------------------------------------------------------ profile and emails

function unlockedCompany(state, account, rawId) {
  let id;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    id = rawId;
  }
  const company = state.byHashId.get(id);
  if (!company || !account.unlocked.has(company.domain)) {
    throw notFound(
      `Company "${id}" not found, or not unlocked by this account (companyHashId comes from unlock)`,
    );
  }
  return company;
}

function profile(state, ctx, account, [rawId]) {
  const company = unlockedCompany(state, account, rawId);
  return ok(JSON.parse(JSON.stringify(company.profile)));
}

function profileEmails(state, ctx, account, [rawId]) {
  const company = unlockedCompany(state, account, rawId);
  const page = intParam(ctx, 'page', { def: 1, min: 1 });
  const pageSize = intParam(ctx, 'pageSize', { def: 20, min: 1, max: 100 });
  const keyword = param(ctx, 'keyword');
  const matching = keyword
    ? company.contacts.filter((c) => includesCI(c.name, keyword) || includesCI(c.title, keyword))
    : company.contacts;
  return ok({
    emails: pageOf(matching, page, pageSize).map((c) => ({ ...c })),
    total: matching.length,
    page,
  });
}

// ------------------------------------------------------------------------------------------------ sending

const MAX_CONTENT = 50000;
const MAX_SUBJECT = 200;
const MAX_TASK_SUBJECT = 255;
const MAX_RECIPIENTS = 100;

function checkString(value, label, { required = true, max, nonEmpty = true } = {}) {
  if (value == null) {
    if (required) throw bad(`${label} is required`);
    return;
  }
  if (typeof value !== 'string') throw bad(`${label} must be a string`);
  if (nonEmpty && required && !value.trim()) throw bad(`${label} must not be empty`);
  if (max != null && charCount(value) > max) throw bad(`${label} must be at most ${max} characters`);
}

function checkBodyFormat(value, label) {
  if (value !== 'text' && value !== 'html') throw bad(`${label} must be "text" or "html"`);
}

function checkVariables(value, label) {
  if (value == null) return {};
  if (!isPlainObject(value)) throw bad(`${label} must be an object of string values`);
  for (const [name, v] of Object.entries(value)) {
    if (!/^\w+$/.test(name)) throw bad(`${label}: variable name "${name}" must match \\w+`);
    if (typeof v !== 'string') throw bad(`${label}.${name} must be a string`);
  }
  return value;
}

function checkRecipientCommon(r, label) {
  if (!isPlainObject(r)) throw bad(`${label} must be an object`);
  if (r.email == null) throw bad(`${label}.email is required`);
  if (!isValidEmail(r.email)) throw bad(`${label}.email "${String(r.email)}" is not a valid email address`);
  checkString(r.subject, `${label}.subject`, { max: MAX_SUBJECT });
  checkString(r.nickname, `${label}.nickname`, { required: false, nonEmpty: false });
  return checkVariables(r.variables, `${label}.variables`);
}

function taskSubjectOf(body) {
  if (body.task_subject == null) return '';
  if (typeof body.task_subject !== 'string') throw bad('task_subject must be a string');
  const cleaned = cleanTaskSubject(body.task_subject);
  if (charCount(cleaned) > MAX_TASK_SUBJECT) {
    throw bad(`task_subject must be at most ${MAX_TASK_SUBJECT} characters (after trimming)`);
  }
  return cleaned;
}

function checkCount(list, name) {
  if (!Array.isArray(list)) throw bad(`${name} must be an array of 1 to ${MAX_RECIPIENTS} entries`);
  if (list.length < 1 || list.length > MAX_RECIPIENTS) {
    throw bad(`${name} must have 1 to ${MAX_RECIPIENTS} entries (got ${list.length})`);
  }
}

function requireSendingPlan(account) {
  if (account.plan !== 'paid') {
    throw new ProblemError(
      403,
      'forbidden',
      'The free plan has no permission to send email; upgrade the plan',
    );
  }
}

function chargeEdm(state, ctx, account, count) {
  const day = Math.floor(state.now() / DAY);
  if (account.dailySendLimit != null && account.sentDay !== day) {
    account.sentDay = day;
    account.sentToday = 0;
  }
  // The daily sending quota (a control): a send that would pass it is refused whole, nothing charged.
  if (account.dailySendLimit != null && account.sentToday + count > account.dailySendLimit) {
    state.stats.quotaExceeded++;
    throw new ProblemError(429, 'quota-exceeded', 'Daily quota exceeded; it resets at 00:00 UTC', {
      headers: { 'Retry-After': String(secondsToUtcMidnight(state.now())) },
    });
  }
  const charge = state.charge(account, 'Edm', count);
  if (!charge.ok) throw insufficient(state, ctx, 'EDM quota', charge);
  if (account.dailySendLimit != null) account.sentToday += count;
  return charge;
}

function mailFor(entry, content, bodyFormat, variables) {
  return {
    recipientEmail: entry.email,
    recipientNickname: entry.nickname == null ? '' : entry.nickname,
    subject: substituteVariables(entry.subject, variables),
    content: substituteVariables(content, variables),
    bodyFormat,
    outcome: mailOutcome(entry.email),
  };
}

function sendBatch(state, ctx, account) {
  requireSendingPlan(account);
  const body = jsonBody(ctx);
  checkString(body.content, 'content', { max: MAX_CONTENT });
  checkBodyFormat(body.body_format, 'body_format');
  const taskSubject = taskSubjectOf(body);
  checkCount(body.recipients, 'recipients');
  const variables = body.recipients.map((r, i) => checkRecipientCommon(r, `recipients[${i}]`));
  chargeEdm(state, ctx, account, body.recipients.length);
  const task = state.createTask({
    key: account.key,
    kind: 'batch',
    taskSubject,
    content: body.content,
    bodyFormat: body.body_format,
    mails: body.recipients.map((r, i) => mailFor(r, body.content, body.body_format, variables[i])),
  });
  return ok({ task_id: task.taskId, total: task.mailIds.length, status: 'pending' }, 201);
}

function sendPersonalized(state, ctx, account) {
  requireSendingPlan(account);
  const body = jsonBody(ctx);
  const taskSubject = taskSubjectOf(body);
  checkCount(body.emails, 'emails');
  const variables = body.emails.map((e, i) => {
    const label = `emails[${i}]`;
    const vars = checkRecipientCommon(e, label);
    checkString(e.content, `${label}.content`, { max: MAX_CONTENT });
    checkBodyFormat(e.body_format, `${label}.body_format`);
    return vars;
  });
  chargeEdm(state, ctx, account, body.emails.length);
  const mails = body.emails.map((e, i) => mailFor(e, e.content, e.body_format, variables[i]));
  // One task for the request, or one per mail (state.taskShape): the answer lists each mail's own task.
  const groups = state.taskShape === 'per-mail' ? mails.map((m) => [m]) : [mails];
  const tasks = groups.map((group) =>
    state.createTask({
      key: account.key,
      kind: 'personalized',
      taskSubject,
      content: '',
      bodyFormat: group[0].bodyFormat,
      mails: group,
    }),
  );
  return ok(
    {
      total: mails.length,
      tasks: tasks.flatMap((task) =>
        task.mailIds.map((mailId) => ({
          task_id: task.taskId,
          mail_id: mailId,
          email: state.mails.get(mailId).recipientEmail,
        })),
      ),
    },
    201,
  );
}

// -------------------------------------------------------------------------------------------- tracking

const TASK_STATUSES = ['pending', 'requested', 'completed', 'partial', 'failed'];
const MAIL_STATUSES = ['pending', 'requested', 'sent', 'failed'];

/** Sorts by `value` (nulls last in both orders), ties broken by id in the same direction. */
function sortBy(items, value, id, order) {
  const dir = order === 'asc' ? 1 : -1;
  return items.sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va !== vb) {
      if (va === null) return 1;
      if (vb === null) return -1;
      return (va < vb ? -1 : 1) * dir;
    }
    return (id(a) - id(b)) * dir;
  });
}

function listTasks(state, ctx, account) {
  const taskIds = idListParam(ctx, 'task_ids');
  const subject = param(ctx, 'subject');
  const taskSubject = param(ctx, 'task_subject');
  const statuses = listParam(ctx, 'statuses', TASK_STATUSES);
  const recipientEmail = param(ctx, 'recipient_email');
  const nickname = param(ctx, 'recipient_nickname');
  const createdFrom = timeParam(ctx, 'created_from');
  const createdTo = timeParam(ctx, 'created_to');
  const page = intParam(ctx, 'page', { def: 1, min: 1 });
  const pageSize = intParam(ctx, 'page_size', { def: 20, min: 1, max: 100 });
  const sortField = enumParam(ctx, 'sort_by', ['created_at', 'task_id'], 'created_at');
  const order = enumParam(ctx, 'sort_order', ['asc', 'desc'], 'desc');
  const now = state.now();

  // Narrowed by task_ids first (a cheap look-up): the records below are computed from every mail's state.
  const candidates = taskIds
    ? [...taskIds].map((id) => state.tasks.get(id)).filter(Boolean)
    : [...state.tasks.values()];
  let rows = candidates
    .filter((t) => t.key === account.key)
    .map((t) => ({
      task: t,
      record: state.taskRecord(t, false, now),
      mails: t.mailIds.map((id) => state.mails.get(id)),
    }));
  rows = rows.filter(
    ({ task, record, mails }) =>
      (!taskIds || taskIds.has(task.taskId)) &&
      (!subject || mails.some((m) => includesCI(m.subject, subject))) &&
      (!taskSubject || includesCI(task.taskSubject, taskSubject)) &&
      (!statuses || !statuses.length || statuses.includes(record.status)) &&
      (!recipientEmail ||
        mails.some((m) => m.recipientEmail.toLowerCase() === recipientEmail.toLowerCase())) &&
      (!nickname || mails.some((m) => includesCI(m.recipientNickname, nickname))) &&
      (createdFrom === null || task.createdAt >= createdFrom) &&
      (createdTo === null || task.createdAt <= createdTo),
  );
  sortBy(
    rows,
    (r) => (sortField === 'task_id' ? r.task.taskId : r.task.createdAt),
    (r) => r.task.taskId,
    order,
  );
  return ok({
    data: pageOf(rows, page, pageSize).map((r) => r.record),
    total: rows.length,
    page,
    page_size: pageSize,
  });
}

function ownedId(raw, label) {
  if (!/^\d+$/.test(raw)) throw bad(`${label} must be an integer`);
  return Number(raw);
}

function getTask(state, ctx, account, [rawId]) {
  const task = state.tasks.get(ownedId(rawId, 'taskId'));
  if (!task || task.key !== account.key) throw notFound(`Task ${rawId} not found`);
  return ok(state.taskRecord(task, true));
}

const MAIL_SORT = {
  sent_at: (s) => s.sentAt,
  callback_received_at: (s) => s.callbackReceivedAt,
  mail_id: (s, m) => m.mailId,
  status: (s) => s.status,
};

function listMails(state, ctx, account) {
  const taskIds = idListParam(ctx, 'task_ids');
  const mailIds = idListParam(ctx, 'mail_ids');
  const subject = param(ctx, 'subject');
  const statuses = listParam(ctx, 'statuses', MAIL_STATUSES);
  const recipientEmail = param(ctx, 'recipient_email');
  const nickname = param(ctx, 'recipient_nickname');
  const sentFrom = timeParam(ctx, 'sent_from');
  const sentTo = timeParam(ctx, 'sent_to');
  const receivedFrom = timeParam(ctx, 'received_from');
  const receivedTo = timeParam(ctx, 'received_to');
  const page = intParam(ctx, 'page', { def: 1, min: 1 });
  const pageSize = intParam(ctx, 'page_size', { def: 20, min: 1, max: 100 });
  const sortField = enumParam(ctx, 'sort_by', Object.keys(MAIL_SORT), 'sent_at');
  const order = enumParam(ctx, 'sort_order', ['asc', 'desc'], 'desc');
  const now = state.now();
  const inRange = (v, lo, hi) =>
    (lo === null && hi === null) || (v !== null && (lo === null || v >= lo) && (hi === null || v <= hi));

  // Narrowed by mail_ids or task_ids first (cheap look-ups): a mail's state is computed for each candidate.
  let candidates;
  if (mailIds) candidates = [...mailIds].map((id) => state.mails.get(id));
  else if (taskIds)
    candidates = [...taskIds].flatMap((id) =>
      (state.tasks.get(id) || { mailIds: [] }).mailIds.map((m) => state.mails.get(m)),
    );
  else candidates = [...state.mails.values()];
  const rows = candidates
    .filter((m) => m && m.key === account.key)
    .map((m) => ({ mail: m, s: state.mailState(m, now) }))
    .filter(
      ({ mail, s }) =>
        (!taskIds || taskIds.has(mail.taskId)) &&
        (!mailIds || mailIds.has(mail.mailId)) &&
        (!subject || includesCI(mail.subject, subject)) &&
        (!statuses || !statuses.length || statuses.includes(s.status)) &&
        (!recipientEmail || mail.recipientEmail.toLowerCase() === recipientEmail.toLowerCase()) &&
        (!nickname || includesCI(mail.recipientNickname, nickname)) &&
        inRange(s.sentAt, sentFrom, sentTo) &&
        inRange(s.callbackReceivedAt, receivedFrom, receivedTo),
    );
  sortBy(
    rows,
    (r) => MAIL_SORT[sortField](r.s, r.mail),
    (r) => r.mail.mailId,
    order,
  );
  return ok({
    data: pageOf(rows, page, pageSize).map((r) => state.mailRecord(r.mail, false, now)),
    total: rows.length,
    page,
    page_size: pageSize,
  });
}

function getMail(state, ctx, account, [rawId]) {
  const mail = state.mails.get(ownedId(rawId, 'mailId'));
  if (!mail || mail.key !== account.key) throw notFound(`Mail ${rawId} not found`);
  return ok(state.mailRecord(mail, true));
}

// ------------------------------------------------------------------------------------------------ routing

const ROUTES = [
  ['GET', /^\/api\/v1\/credit\/balance$/, balance],
  ['POST', /^\/api\/v1\/companies\/search-advanced$/, search],
  ['POST', /^\/api\/v1\/companies\/unlock$/, unlock],
  ['GET', /^\/api\/v1\/companies\/([^/]+)\/profile$/, profile],
  ['GET', /^\/api\/v1\/companies\/([^/]+)\/profileEmails$/, profileEmails],
  ['POST', /^\/api\/v1\/emails\/send\/batch$/, sendBatch],
  ['POST', /^\/api\/v1\/emails\/send\/personalized$/, sendPersonalized],
  ['GET', /^\/api\/v1\/emails\/tasks$/, listTasks],
  ['GET', /^\/api\/v1\/emails\/tasks\/([^/]+)$/, getTask],
  ['GET', /^\/api\/v1\/emails\/mails$/, listMails],
  ['GET', /^\/api\/v1\/emails\/mails\/([^/]+)$/, getMail],
];

/** `Authorization: ApiKey <key>` -> key (scheme case-insensitive), or null. */
function outreachKey(headers) {
  const m = /^\s*ApiKey\s+(\S+)\s*$/i.exec(headers.authorization || '');
  return m ? m[1] : null;
}

function retired(ctx) {
  return {
    status: 410,
    contentType: 'application/problem+json',
    json: {
      type: 'https://www.rfc-editor.org/rfc/rfc9110#status.410',
      title: 'Gone',
      status: 410,
      detail:
        'Contact search is retired. Use search-advanced, unlock, then ' +
        'GET /api/v1/companies/{companyHashId}/profileEmails instead.',
      instance: ctx.path,
      code: 'contact_search_retired',
      replacement: PROFILE_EMAILS_PATH,
    },
  };
}

function nonApi(ctx) {
  if (ctx.method === 'GET' && ctx.path === '/') {
    return ok({ service: 'outreach sandbox', version: '1.0.0', api: `${ctx.baseUrl}/api/v1` });
  }
  if (ctx.method === 'GET' && ctx.path === '/pricing') {
    return {
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      text: 'Sandbox pricing: add-on pack 400 search points + 2000 EDM, 39.99 USD.\n',
    };
  }
  const m = /^\/errors\/([\w-]+)$/.exec(ctx.path);
  if (ctx.method === 'GET' && m && TITLES[m[1]]) {
    return { status: 200, contentType: 'text/plain; charset=utf-8', text: `${m[1]}: ${TITLES[m[1]]}\n` };
  }
  return problem(ctx, 404, 'not-found', `No route for ${ctx.method} ${ctx.path}`);
}

function secondsToUtcMidnight(now) {
  const d = new Date(now);
  const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + DAY;
  return Math.max(1, Math.ceil((midnight - now) / 1000));
}

function route(state, ctx) {
  if (ctx.path === RETIRED_PATH) return retired(ctx);
  if (!ctx.path.startsWith('/api/')) return nonApi(ctx);

  const account = ctx.key ? state.accounts[ctx.key] : null;
  if (!ctx.key || !account || account.revoked) {
    const detail = !ctx.headers.authorization
      ? 'Missing Authorization header; expected "Authorization: ApiKey <API_KEY>"'
      : !ctx.key
        ? 'Malformed Authorization header; expected "Authorization: ApiKey <API_KEY>"'
        : account
          ? 'API key has been revoked'
          : 'Invalid API key';
    return problem(ctx, 401, 'unauthorized', detail, { headers: { 'WWW-Authenticate': 'ApiKey' } });
  }

  const slot = state.takeRateSlot('outreach', ctx.key);
  if (!slot.ok) {
    state.stats.rateLimited.outreach++;
    return problem(
      ctx,
      429,
      'rate-limit',
      `More than ${slot.limit} requests per minute; retry after ${slot.retryAfterS} s`,
      {
        headers: {
          'Retry-After': String(slot.retryAfterS),
          'X-RateLimit-Limit': String(slot.limit),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(Math.ceil(slot.freeAt / 1000)),
        },
      },
    );
  }
  ctx.extraHeaders = {
    'X-RateLimit-Limit': String(slot.limit),
    'X-RateLimit-Remaining': String(slot.remaining),
  };

  if (account.dailyQuotaExhausted && ctx.path !== BALANCE_PATH) {
    state.stats.quotaExceeded++;
    const retryAfter = secondsToUtcMidnight(state.now());
    return problem(ctx, 429, 'quota-exceeded', 'Daily quota exceeded; it resets at 00:00 UTC', {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }

  let pathMatched = false;
  for (const [method, re, handler] of ROUTES) {
    const m = re.exec(ctx.path);
    if (!m) continue;
    pathMatched = true;
    if (method === ctx.method) return handler(state, ctx, account, m.slice(1));
  }
  if (pathMatched) {
    const allow = ROUTES.filter(([, re]) => re.test(ctx.path)).map(([method]) => method);
    return problem(ctx, 405, 'method-not-allowed', `${ctx.method} is not allowed on ${ctx.path}`, {
      headers: { Allow: allow.join(', ') },
    });
  }
  return problem(ctx, 404, 'not-found', `No route for ${ctx.method} ${ctx.path}`);
}

/** ctx: { method, path, query: URLSearchParams, headers, rawBody, key, baseUrl } -> response. */
function handleOutreach(state, ctx) {
  try {
    return route(state, ctx);
  } catch (err) {
    if (err instanceof ProblemError) {
      return problem(ctx, err.status, err.slug, err.message, { headers: err.headers, extra: err.extra });
    }
    throw err;
  }
}

/** The RFC 7807 body an injected `status` fault answers with. */
function outreachFaultResponse(ctx, fault) {
  const slug = fault.slug || SLUG_BY_STATUS[fault.status] || 'internal-error';
  const headers = {};
  if (fault.status === 429 || fault.status === 503) headers['Retry-After'] = String(fault.retryAfter ?? 1);
  const details = {
    'rate-limit': 'More than 60 requests per minute (injected fault)',
    'upstream-error': 'Email-delivery provider failure; retry later (injected fault)',
    'service-unavailable': 'Service temporarily unavailable (injected fault)',
  };
  const detail = details[slug] || `${TITLES[slug] || 'Error'} (injected fault)`;
  return problem(ctx, fault.status, slug, fault.echoKey ? `${detail}${keyEcho(ctx.key)}` : detail, {
    headers,
  });
}

module.exports = { handleOutreach, outreachKey, outreachFaultResponse, problem, RETIRED_PATH, ROUTES };
