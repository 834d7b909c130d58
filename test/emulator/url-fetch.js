'use strict';
// UrlFetchApp: real HTTP requests, made synchronously as Apps Script does. The requests run in a worker
// thread (url-fetch-worker.js) while this thread blocks in Atomics.wait; fetchAll runs its requests in
// parallel. Each fetch/fetchAll adds fetchLatencyMs to the virtual clock, is counted in emu.stats.urlFetch
// and logged in emu.fetchLog. A manifest's urlFetchWhitelist restricts the URLs (url-allowlist.js); http://
// is allowed where it does (the loopback sandbox).
const path = require('node:path');
const { Worker, MessageChannel, receiveMessageOnPort } = require('node:worker_threads');
const { AppsScriptError, permissionError } = require('./errors');
const { instrument } = require('./execution');
const { Blob, toBuffer, toSigned } = require('./utilities');
const { isPlainObject } = require('./realm');

const SCOPE_EXTERNAL = 'https://www.googleapis.com/auth/script.external_request';
const USER_AGENT =
  'Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: UAEmdDd-emulated)';

/** Runs batches of HTTP requests in a worker and waits for them synchronously. */
class SyncFetcher {
  constructor() {
    this.worker = null;
    this.seq = 0;
  }
  _start() {
    const { port1, port2 } = new MessageChannel();
    this.flag = new SharedArrayBuffer(4);
    this.signal = new Int32Array(this.flag);
    this.port = port1;
    this.worker = new Worker(path.join(__dirname, 'url-fetch-worker.js'), {
      workerData: { port: port2, flag: this.flag },
      transferList: [port2],
    });
    this.worker.unref();
    this.port.unref();
    this.worker.on('error', () => this.dispose());
  }
  /** @returns {Array<{ok: boolean, status?: number, headers?: string[][], body?: Uint8Array, code?: string, message?: string}>} */
  run(requests, timeoutMs) {
    if (!this.worker) this._start();
    const id = ++this.seq;
    Atomics.store(this.signal, 0, 0);
    this.port.postMessage({ id, requests });
    const deadline = Date.now() + timeoutMs + 5000;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      Atomics.wait(this.signal, 0, 0, left);
      let msg;
      while ((msg = receiveMessageOnPort(this.port))) {
        if (msg.message.id === id) return msg.message.results;
      }
    }
    this.dispose();
    return requests.map(() => ({ ok: false, code: 'ETIMEDOUT', message: 'worker timeout' }));
  }
  dispose() {
    if (this.worker) {
      const w = this.worker;
      this.worker = null;
      this.port.close();
      w.terminate();
    }
  }
}

const NETWORK_MESSAGES = {
  ECONNREFUSED: 'Address unavailable',
  EADDRNOTAVAIL: 'Address unavailable',
  EHOSTUNREACH: 'Address unavailable',
  ENETUNREACH: 'Address unavailable',
  ENOTFOUND: 'DNS error',
  EAI_AGAIN: 'DNS error',
  ETIMEDOUT: 'Timeout',
  EINVALIDURL: 'Invalid argument',
  EPROTOCOL: 'Invalid argument',
};

function formEncode(obj) {
  return Object.entries(obj)
    .map(
      ([k, v]) =>
        `${encodeURIComponent(k)}=${encodeURIComponent(v === null || v === undefined ? '' : String(v))}`,
    )
    .join('&');
}

/** Builds what Apps Script would send for (url, params). */
function buildRequest(url, params = {}, defaults) {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
    throw new AppsScriptError(`Invalid argument: ${url === undefined ? 'url' : url}`);
  }
  const method = String(params.method || 'get').toUpperCase();
  if (!['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'].includes(method)) {
    throw new AppsScriptError(`Invalid argument: method`);
  }
  const headers = {};
  for (const [k, v] of Object.entries(params.headers || {})) headers[k] = String(v);
  const headerType = Object.keys(headers).find((k) => k.toLowerCase() === 'content-type');
  let body = null;
  let contentType = params.contentType || (headerType ? headers[headerType] : null);
  const p = params.payload;
  if (p !== undefined && p !== null) {
    if (typeof p === 'string') body = Buffer.from(p, 'utf8');
    else if (p && typeof p.getBytes === 'function') {
      body = Buffer.from(p._bytes);
      contentType = contentType || p.getContentType();
    } else if (Array.isArray(p) || ArrayBuffer.isView(p)) body = toBuffer(p);
    else if (isPlainObject(p) || typeof p === 'object') body = Buffer.from(formEncode(p), 'utf8');
    else body = Buffer.from(String(p), 'utf8');
    contentType = contentType || 'application/x-www-form-urlencoded';
  }
  if (headerType) delete headers[headerType];
  if (body && contentType) headers['Content-Type'] = contentType;
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'user-agent')) headers['User-Agent'] = USER_AGENT;
  return {
    url,
    method,
    headers,
    body: body ? new Uint8Array(body) : null,
    followRedirects: params.followRedirects !== false,
    validateHttpsCertificates: params.validateHttpsCertificates !== false,
    muteHttpExceptions: params.muteHttpExceptions === true,
    timeoutMs: defaults.timeoutMs,
  };
}

class HTTPResponse {
  constructor(env, result) {
    this._env = env;
    this._r = result;
    this._body = Buffer.from(result.body);
  }
  getResponseCode() {
    return this._r.status;
  }
  getContentText(charset) {
    return this._body.toString(
      String(charset || 'UTF-8')
        .toUpperCase()
        .replace('_', '-') === 'US-ASCII'
        ? 'latin1'
        : 'utf8',
    );
  }
  getContent() {
    return toSigned(this._body);
  }
  getHeaders() {
    const out = {};
    for (const [k, v] of this._r.headers) out[k] = v;
    return out;
  }
  getAllHeaders() {
    const out = {};
    for (const [k, v] of this._r.headers) {
      if (k in out) out[k] = [].concat(out[k], v);
      else out[k] = v;
    }
    return out;
  }
  getBlob() {
    const type = Object.entries(this.getHeaders()).find(([k]) => k.toLowerCase() === 'content-type');
    return new Blob(this._env, this._body, type ? type[1].split(';')[0].trim() : null, null);
  }
  getAs(contentType) {
    return this.getBlob().setContentType(contentType);
  }
}

class UrlFetchAppImpl {
  constructor(env) {
    this._env = env;
  }
  _defaults() {
    return { timeoutMs: this._env.emu.fetchTimeoutMs };
  }
  _checkWhitelist(url) {
    const allowlist = this._env.emu.urlFetchAllowlist;
    if (allowlist) allowlist.check(url);
  }
  _send(requests) {
    const { emu, exec } = this._env;
    requests.forEach((r) => this._checkWhitelist(r.url));
    emu._fetchQuota.take(exec ? exec.effectiveUser : emu.users.active, requests.length);
    emu.stats.urlFetch.calls++;
    emu.stats.urlFetch.requests += requests.length;
    const started = emu.clock.now();
    const results = emu._fetcher().run(
      requests.map(({ muteHttpExceptions: _mute, ...r }) => r),
      emu.fetchTimeoutMs,
    );
    emu.clock.advance(emu.fetchLatencyMs);
    emu._chargeTime('urlFetch.call', emu.fetchLatencyMs);
    results.forEach((res, i) => {
      const req = requests[i];
      emu.fetchLog.push({
        method: req.method,
        url: req.url,
        headers: { ...req.headers },
        payload: req.body ? Buffer.from(req.body).toString('utf8') : null,
        status: res.ok ? res.status : null,
        error: res.ok ? null : `${res.code}: ${res.message}`,
        virtualMs: started,
        executionId: exec ? exec.id : null,
      });
    });
    // Test hook: what the user does in the sheet while a request is on the wire (sort, insert, type...).
    if (typeof emu.onFetch === 'function') emu.onFetch(emu.fetchLog.slice(-results.length));
    return results.map((res, i) => this._response(requests[i], res));
  }
  _response(req, res) {
    if (!res.ok) {
      const kind = NETWORK_MESSAGES[res.code] || 'Unexpected error';
      return new AppsScriptError(`${kind}: ${req.url}`);
    }
    if (res.status >= 400 && !req.muteHttpExceptions) {
      const text = Buffer.from(res.body).toString('utf8');
      const shown = text.length > 100 ? `${text.slice(0, 100)}...` : text;
      return new AppsScriptError(
        `Request failed for ${req.url} returned code ${res.status}. Truncated server response: ${shown} (use muteHttpExceptions option to examine full response)`,
      );
    }
    return new HTTPResponse(this._env, res);
  }
  fetch(url, params) {
    const [out] = this._send([buildRequest(url, params || {}, this._defaults())]);
    if (out instanceof Error) throw out;
    return out;
  }
  fetchAll(requests) {
    if (!Array.isArray(requests)) throw new AppsScriptError('Invalid argument: requests');
    const built = requests.map((r) =>
      typeof r === 'string'
        ? buildRequest(r, {}, this._defaults())
        : buildRequest(r.url, r, this._defaults()),
    );
    if (built.length === 0) return [];
    const out = this._send(built);
    const failed = out.find((o) => o instanceof Error);
    if (failed) throw failed;
    return out;
  }
  getRequest(url, params) {
    const r = buildRequest(url, params || {}, this._defaults());
    return {
      url: r.url,
      method: r.method.toLowerCase(),
      headers: r.headers,
      payload: r.body ? Buffer.from(r.body).toString('utf8') : '',
      contentType: r.headers['Content-Type'] || null,
      followRedirects: r.followRedirects,
      muteHttpExceptions: r.muteHttpExceptions,
      validateHttpsCertificates: r.validateHttpsCertificates,
    };
  }
}

function guard(exec, name) {
  if (name === 'getRequest') return;
  if (exec.authMode === 'NONE' || exec.authMode === 'LIMITED' || !exec.emu._hasScope(SCOPE_EXTERNAL)) {
    throw permissionError(`UrlFetchApp.${name}`, SCOPE_EXTERNAL);
  }
}

instrument(UrlFetchAppImpl, { label: 'UrlFetchApp', group: 'urlFetch', classify: () => 'other', guard });
instrument(HTTPResponse, { label: 'HTTPResponse', group: 'urlFetch' });

const DAILY_QUOTA_MESSAGE = 'Service invoked too many times for one day: urlfetch.';
const DAY_MS = 24 * 3600 * 1000;

/**
 * The daily quota of URL Fetch calls, per user (Google's "Quotas for Google Services": 20,000 a day for a
 * consumer account, 100,000 for Google Workspace, reset 24 h after the first call). Each request counts,
 * those of a fetchAll too; a fetchAll that would pass the quota sends none of its requests.
 */
class FetchQuota {
  constructor(clock, perDay) {
    this._clock = clock;
    this.perDay = perDay || null;
    this.days = new Map();
  }
  /** The calls `user` made in the current 24 h window, and when it resets (null: no window open). */
  of(user) {
    const day = this.days.get(user);
    if (!day || this._clock.now() >= day.start + DAY_MS) return { used: 0, resetsAt: null };
    return { used: day.used, resetsAt: day.start + DAY_MS };
  }
  /** Counts `n` calls of `user`; throws the documented message when the day's quota would be passed. */
  take(user, n) {
    if (!this.perDay) return;
    const now = this._clock.now();
    let day = this.days.get(user);
    if (!day || now >= day.start + DAY_MS) this.days.set(user, (day = { start: now, used: 0 }));
    if (day.used + n > this.perDay) throw new AppsScriptError(DAILY_QUOTA_MESSAGE);
    day.used += n;
  }
  /** Test helper: `user` already made `used` calls today (other scripts of the same account). */
  setUsed(user, used) {
    const day = this.of(user);
    this.days.set(user, { start: day.resetsAt ? day.resetsAt - DAY_MS : this._clock.now(), used });
  }
}

module.exports = { FetchQuota, DAILY_QUOTA_MESSAGE, UrlFetchAppImpl, SyncFetcher, buildRequest, USER_AGENT };
