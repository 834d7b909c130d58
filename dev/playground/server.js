'use strict';
// The playground's HTTP server (main thread, loopback only): the static page, a Server-Sent Events stream
// (state, toasts, sidebars, dialogs, alerts waiting for an answer, busy) and small JSON endpoints that
// queue operations on the emulator worker.
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { fontsCss, fontFile } = require('./fonts');
const { runDemo } = require('./demo');

const PUBLIC_DIR = path.join(__dirname, 'public');
const STATIC = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/index.html': ['index.html', 'text/html; charset=utf-8'],
  '/app.js': ['app.js', 'text/javascript; charset=utf-8'],
  '/bridge.js': ['bridge.js', 'text/javascript; charset=utf-8'],
  '/style.css': ['style.css', 'text/css; charset=utf-8'],
};
const MAX_BODY = 1024 * 1024;
const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

/**
 * @param {import('./host').EmulatorHost} host
 * @param {{ info: object }} options info: sandbox URLs, demo keys, entry-point names
 */
function createPlaygroundServer(host, { info }) {
  const clients = new Set();

  const broadcast = (event, data) => {
    const chunk = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of clients) res.write(chunk);
  };
  const listeners = {
    state: (s) => broadcast('state', s),
    ui: (e) => broadcast('ui', e),
    prompt: (p) => broadcast('prompt', p),
    'prompt-done': (p) => broadcast('prompt-done', p),
    busy: (b) => broadcast('busy', b),
    failed: (err) => broadcast('busy', { running: null, failed: err.message }),
  };
  for (const [name, fn] of Object.entries(listeners)) host.on(name, fn);

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { name: 'Error', message: err.message } });
      else res.end();
    });
  });

  async function handle(req, res) {
    const url = new URL(req.url, 'http://127.0.0.1');
    const route = url.pathname;
    // Loopback names only (a page on another site cannot reach the emulator through DNS rebinding).
    if (!/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i.test(String(req.headers.host || ''))) {
      sendJson(res, 421, { ok: false, error: { name: 'Error', message: 'Use http://127.0.0.1' } });
      return;
    }
    if (req.method === 'GET' && STATIC[route]) {
      const [file, type] = STATIC[route];
      const body = await fs.promises.readFile(path.join(PUBLIC_DIR, file));
      res.writeHead(200, { 'Content-Type': type, ...SECURITY_HEADERS });
      res.end(body);
      return;
    }
    if (req.method === 'GET' && (route === '/fonts.css' || route.startsWith('/fonts/'))) {
      await sendFont(res, route);
      return;
    }
    if (req.method === 'GET' && route === '/favicon.ico') {
      res.writeHead(204, SECURITY_HEADERS);
      res.end();
      return;
    }
    if (req.method === 'GET' && route === '/api/events') {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        Connection: 'keep-alive',
        ...SECURITY_HEADERS,
      });
      res.write(`event: info\ndata: ${JSON.stringify(info)}\n\n`);
      if (host.state) res.write(`event: state\ndata: ${JSON.stringify(host.state)}\n\n`);
      res.write(`event: busy\ndata: ${JSON.stringify({ running: host.running })}\n\n`);
      for (const prompt of host.prompts.values())
        res.write(`event: prompt\ndata: ${JSON.stringify(prompt)}\n\n`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    if (req.method === 'GET' && route === '/api/state') {
      const reply = host.state ? { state: host.state } : await host.call({ op: 'state' });
      sendJson(res, 200, { info, state: reply.state, uiSeq: host.uiSeq });
      return;
    }
    if (req.method !== 'POST' || !route.startsWith('/api/')) {
      sendJson(res, 404, { ok: false, error: { name: 'Error', message: `No route ${req.method} ${route}` } });
      return;
    }
    // Only the page itself may drive the emulator (no cross-site form posts to the loopback port).
    if (!String(req.headers['content-type'] || '').startsWith('application/json')) {
      sendJson(res, 415, { ok: false, error: { name: 'Error', message: 'JSON body required' } });
      return;
    }
    const body = await readJson(req);
    if (route === '/api/run') {
      if (typeof body.name !== 'string' || !Array.isArray(body.args || [])) {
        sendJson(res, 400, { ok: false, error: { name: 'Error', message: 'name and args required' } });
        return;
      }
      const kind = body.kind === 'menu' ? 'menu' : 'webapp';
      sendJson(res, 200, await host.call({ op: 'run', name: body.name, args: body.args || [], kind }));
    } else if (route === '/api/select') {
      sendJson(
        res,
        200,
        await host.call({ op: 'select', ...pick(body, ['sheet', 'range', 'current', 'seq']) }),
      );
    } else if (route === '/api/edit') {
      sendJson(res, 200, await host.call({ op: 'edit', ...pick(body, ['sheet', 'range', 'input']) }));
    } else if (route === '/api/toggle') {
      sendJson(res, 200, await host.call({ op: 'toggle', ...pick(body, ['sheet', 'range']) }));
    } else if (route === '/api/structure') {
      sendJson(res, 200, await host.call({ op: 'structure', ...pick(body, ['sheet', 'action', 'args']) }));
    } else if (route === '/api/paste') {
      sendJson(res, 200, await host.call({ op: 'paste', ...pick(body, ['sheet', 'range', 'values']) }));
    } else if (route === '/api/demo') {
      sendJson(res, 200, await runDemo(host, info, String(body.action)));
    } else if (route === '/api/advance') {
      sendJson(res, 200, await host.call({ op: 'advance', ms: Number(body.ms) }));
    } else if (route === '/api/prompt') {
      const ok = host.answer({ id: body.id, button: body.button, text: body.text });
      sendJson(
        res,
        ok ? 200 : 409,
        ok ? { ok } : { ok, error: { name: 'Error', message: 'No such prompt' } },
      );
    } else {
      sendJson(res, 404, { ok: false, error: { name: 'Error', message: `No route ${route}` } });
    }
  }

  return {
    server,
    close() {
      for (const [name, fn] of Object.entries(listeners)) host.off(name, fn);
      for (const res of clients) res.end();
      clients.clear();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

// The add-on's frames are sandboxed (an opaque origin), and a font is a CORS request: it needs the
// Access-Control-Allow-Origin header to load there.
async function sendFont(res, route) {
  const headers = { ...SECURITY_HEADERS, 'Access-Control-Allow-Origin': '*' };
  if (route === '/fonts.css') {
    res.writeHead(200, { 'Content-Type': 'text/css; charset=utf-8', ...headers });
    res.end(fontsCss());
    return;
  }
  const file = fontFile(route.slice('/fonts/'.length));
  if (!file) {
    sendJson(res, 404, { ok: false, error: { name: 'Error', message: `No font ${route}` } });
    return;
  }
  const body = await fs.promises.readFile(file);
  res.writeHead(200, { 'Content-Type': 'font/woff2', ...headers, 'Cache-Control': 'max-age=3600' });
  res.end(body);
}

function pick(object, keys) {
  const out = {};
  for (const key of keys) if (object[key] !== undefined) out[key] = object[key];
  return out;
}

function sendJson(res, status, data) {
  const body = JSON.stringify(data);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...SECURITY_HEADERS });
  res.end(body);
}

function readJson(req) {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks = [];
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        const data = text ? JSON.parse(text) : {};
        resolve(data && typeof data === 'object' ? data : {});
      } catch (e) {
        reject(new Error(`invalid JSON: ${e.message}`));
      }
    });
    req.on('error', reject);
  });
}

module.exports = { createPlaygroundServer };
