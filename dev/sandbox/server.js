'use strict';
// HTTP plumbing shared by both services: body reading, fault injection, the /__sandbox/ test controls, and
// writing the responses the pure handlers return.

const http = require('node:http');
const { handleOutreach, outreachKey, outreachFaultResponse, problem } = require('./outreach');
const { handlePhone, phoneKey, phoneFailure, phoneFaultResponse } = require('./phone');
const { iso, sleep } = require('./util');
const { mailboxOf } = require('./mailbox');

const MAX_BODY_BYTES = 20 * 1024 * 1024;
const CONTROL_PREFIX = '/__sandbox/';

const SERVICES = {
  outreach: { handle: handleOutreach, key: outreachKey },
  phone: { handle: handlePhone, key: phoneKey },
};

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function writeResponse(res, response, extraHeaders) {
  const headers = { ...extraHeaders, ...response.headers };
  let payload;
  if (response.raw != null) {
    payload = response.raw;
    headers['Content-Type'] = response.contentType || 'application/json; charset=utf-8';
  } else if (response.text != null) {
    payload = response.text;
    headers['Content-Type'] = response.contentType || 'text/plain; charset=utf-8';
  } else {
    payload = JSON.stringify(response.json);
    headers['Content-Type'] =
      response.contentType === 'application/problem+json'
        ? 'application/problem+json; charset=utf-8'
        : response.contentType || 'application/json; charset=utf-8';
  }
  headers['Content-Length'] = Buffer.byteLength(payload);
  res.writeHead(response.status, headers);
  res.end(payload);
}

const isLoopback = (address) =>
  typeof address === 'string' &&
  (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));

// ------------------------------------------------------------------------------------------------ controls

function control(state, method, path, query, rawBody) {
  const json = (body, status = 200) => ({ status, json: body });
  const fail = (message, status = 400) => json({ error: message }, status);
  let body = {};
  if (rawBody && rawBody.trim()) {
    try {
      body = JSON.parse(rawBody);
    } catch {
      return fail('body is not valid JSON');
    }
  }
  const route = `${method} ${path.slice(CONTROL_PREFIX.length - 1)}`;
  const key = query.get('key');
  try {
    switch (route) {
      case 'POST /reset':
        state.reset();
        return json({ ok: true, now: state.now() });
      case 'GET /clock':
        return json({ now: state.now(), iso: iso(state.now()), virtual: state.clock.isVirtual });
      case 'POST /clock': {
        if (body.advanceMs != null) {
          if (!Number.isFinite(body.advanceMs) || body.advanceMs < 0) return fail('advanceMs must be >= 0');
          state.clock.advance(body.advanceMs);
        } else if (body.nowMs != null) {
          if (!Number.isFinite(body.nowMs)) return fail('nowMs must be a number (epoch ms)');
          state.clock.set(body.nowMs);
        } else {
          return fail('expected {advanceMs} or {nowMs}');
        }
        return json({ now: state.now(), iso: iso(state.now()) });
      }
      case 'GET /faults':
        return json({ faults: state.faults.map((f) => ({ ...f })) });
      case 'POST /faults':
        return json({ fault: state.addFault(body) }, 201);
      case 'DELETE /faults': {
        const cleared = state.faults.length;
        state.faults = [];
        return json({ ok: true, cleared });
      }
      case 'GET /mails':
        return json({ mails: state.mailsOf(key) });
      case 'GET /mailbox': {
        const bound = (name, fallback) => (query.has(name) ? Number(query.get(name)) : fallback);
        const sinceMs = bound('since', 0);
        const untilMs = bound('until', Infinity);
        if (!Number.isFinite(sinceMs) || Number.isNaN(untilMs)) return fail('since and until are epoch ms');
        return json({ messages: mailboxOf(state, { key, sinceMs, untilMs }) });
      }
      case 'GET /unlocks':
        return json({ unlocks: state.unlockLog.filter((u) => !key || u.key === key) });
      case 'GET /phone-checks':
        return json({ checks: state.phoneChecks.filter((c) => !key || c.key === key) });
      case 'GET /requests': {
        const service = query.get('service');
        return json({
          requests: state.requestLog.filter(
            (r) => (!key || r.key === key) && (!service || r.service === service),
          ),
        });
      }
      case 'GET /stats':
        return json(state.stats);
      case 'GET /accounts':
        return json(state.accountsView());
      case 'POST /accounts':
        state.patchAccount(body);
        return json(state.accountsView());
      case 'GET /task-shape':
        return json({ taskShape: state.taskShape });
      case 'POST /task-shape':
        state.setTaskShape(body.taskShape);
        return json({ taskShape: state.taskShape });
      case 'GET /fixtures':
        return json({ seed: state.seed, companyCount: state.companies.length, fixtures: state.fixtures });
      default:
        return fail(`unknown control ${route}`, 404);
    }
  } catch (err) {
    return fail(err.message);
  }
}

// ---------------------------------------------------------------------------------------------- services

/**
 * An http.Server for `service` ('outreach' | 'phone') over the shared state. `getBaseUrl()` gives the
 * {base_url} used in problem `type` URLs.
 */
function createServiceServer(state, service, getBaseUrl) {
  const { handle, key: keyOf } = SERVICES[service];

  async function onRequest(req, res) {
    const url = new URL(req.url, 'http://sandbox.local');
    const path = url.pathname;
    const method = req.method.toUpperCase();

    if (path.startsWith(CONTROL_PREFIX) || path === '/__sandbox') {
      if (!isLoopback(req.socket.remoteAddress)) {
        return writeResponse(res, { status: 403, json: { error: 'loopback only' } });
      }
      const rawBody = await readBody(req);
      return writeResponse(res, control(state, method, path, url.searchParams, rawBody));
    }

    const key = keyOf(req.headers);
    state.countRequest(key, path);
    const entry = state.logRequest({ service, method, path, search: url.search, key, headers: req.headers });
    const fault = state.takeFault(service, method, path);
    if (fault) entry.fault = fault.kind;
    const write = (out, response, extraHeaders) => {
      entry.status = response.status;
      writeResponse(out, response, extraHeaders);
    };
    if (fault && fault.kind === 'drop') {
      entry.outcome = 'dropped';
      req.socket.destroy();
      return;
    }
    const rawBody = await readBody(req);
    const ctx = {
      service,
      method,
      path,
      query: url.searchParams,
      headers: req.headers,
      rawBody,
      key,
      baseUrl: getBaseUrl(),
    };

    if (fault && fault.kind === 'status') {
      return write(
        res,
        service === 'phone' ? phoneFaultResponse(fault, key) : outreachFaultResponse(ctx, fault),
      );
    }
    if (fault && fault.kind === 'phone-code') return write(res, phoneFailure(fault.code));
    if (fault && fault.kind === 'malformed' && !fault.processed) {
      return write(res, {
        status: 200,
        raw: service === 'phone' ? '{"code":0,"result":{"exi' : '{"total":3,"list":[{"id":"',
      });
    }
    if (fault && fault.kind === 'delay') {
      if (fault.serviceTime) {
        state.clock.advance(fault.delayMs);
        if (fault.realMs) await sleep(fault.realMs);
      } else await sleep(fault.delayMs);
    }

    if (rawBody === null) {
      const tooLarge =
        service === 'phone'
          ? { status: 413, json: { code: 413, message: 'Payload too large' } }
          : problem(ctx, 413, 'payload-too-large', `Request body exceeds ${MAX_BODY_BYTES} bytes`);
      return write(res, tooLarge);
    }

    const response = handle(state, ctx);
    if (fault && fault.kind === 'lost-response') {
      entry.status = response.status;
      entry.outcome = 'response lost';
      req.socket.destroy();
      return;
    }
    if (fault && fault.kind === 'malformed') {
      const full = JSON.stringify(response.json ?? {});
      return write(res, { status: 200, raw: full.slice(0, Math.max(1, Math.floor(full.length / 2))) });
    }
    write(res, response, ctx.extraHeaders);
  }

  const server = http.createServer((req, res) => {
    onRequest(req, res).catch((err) => {
      if (res.headersSent) return res.destroy();
      writeResponse(res, {
        status: 500,
        json: { error: 'sandbox internal error', message: String(err && err.stack) },
      });
    });
  });
  return server;
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address().port);
    });
  });
}

function closeServer(server) {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

module.exports = { createServiceServer, listen, closeServer, isLoopback };
