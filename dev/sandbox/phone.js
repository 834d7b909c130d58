'use strict';
// The phone number checking service (docs/services.md).

const { isValidPhone, isRegisteredPhone, keyEcho, PHONE_MESSAGES, PHONE_HTTP_STATUS } = require('./rules');
const { iso } = require('./util');

const CHECK_PATH = '/api/wa/check';
const CREDITS_PATH = '/api/user/credits';

/** A failure answer: `{ code, message }` with the documented HTTP status. */
function phoneFailure(code, headers) {
  return {
    status: PHONE_HTTP_STATUS[code] || 500,
    headers,
    json: { code, message: PHONE_MESSAGES[code] || 'Internal error' },
  };
}

const success = (result) => ({ status: 200, json: { code: 0, result } });

function phoneKey(headers) {
  const v = headers['x-api-key'];
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/** ctx: { method, path, query, headers, key } -> response. */
function handlePhone(state, ctx) {
  if (ctx.path !== CHECK_PATH && ctx.path !== CREDITS_PATH) {
    return { status: 404, json: { code: 404, message: `No route for ${ctx.method} ${ctx.path}` } };
  }
  if (ctx.method !== 'GET') {
    return { status: 405, headers: { Allow: 'GET' }, json: { code: 405, message: 'Only GET is allowed' } };
  }
  if (!ctx.key) return phoneFailure(1001);
  const account = state.phoneAccounts[ctx.key];
  if (!account) return phoneFailure(1003);

  const slot = state.takeRateSlot('phone', ctx.key);
  if (!slot.ok) {
    state.stats.rateLimited.phone++;
    return phoneFailure(1005, {
      'Retry-After': String(slot.retryAfterS),
      'X-RateLimit-Limit': String(slot.limit),
      'X-RateLimit-Remaining': '0',
    });
  }
  ctx.extraHeaders = {
    'X-RateLimit-Limit': String(slot.limit),
    'X-RateLimit-Remaining': String(slot.remaining),
  };

  if (ctx.path === CREDITS_PATH) return success({ total: account.credits });

  const phone = ctx.query.get('phone');
  const log = { key: ctx.key, phone, at: iso(state.now()) };
  if (!isValidPhone(phone)) {
    state.phoneChecks.push({ ...log, code: 1002, charged: false });
    return phoneFailure(1002);
  }
  if (account.credits < 1) {
    state.stats.insufficient.phone++;
    state.phoneChecks.push({ ...log, code: 1004, charged: false });
    return phoneFailure(1004);
  }
  account.credits -= 1;
  state.addCharge('phoneCredits', ctx.key, 1);
  const exist = isRegisteredPhone(phone);
  state.phoneChecks.push({ ...log, code: 0, charged: true, exist });
  return success({ exist });
}

/** The body an injected `status` fault answers with on the phone port. */
function phoneFaultResponse(fault, key) {
  const code = fault.code || { 429: 1005, 502: 1006 }[fault.status] || 1000;
  const headers =
    fault.status === 429 || fault.status === 503
      ? { 'Retry-After': String(fault.retryAfter ?? 1) }
      : undefined;
  const message = PHONE_MESSAGES[code] || 'Internal error';
  return {
    status: fault.status,
    headers,
    json: { code, message: fault.echoKey ? `${message}${keyEcho(key)}` : message },
  };
}

module.exports = { handlePhone, phoneKey, phoneFailure, phoneFaultResponse, CHECK_PATH, CREDITS_PATH };
