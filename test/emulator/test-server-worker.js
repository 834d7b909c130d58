'use strict';
// A tiny HTTP server in a worker thread, for UrlFetchApp tests: while UrlFetchApp.fetch blocks the main
// thread, a server on the main thread could never answer.
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');

const handler = new Function(`return (${workerData.handlerSource});`)();
const state = {};
const log = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const started = Date.now();

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const entry = {
      method: req.method,
      url: req.url,
      headers: req.headers,
      body,
      receivedAtMs: Date.now() - started,
    };
    log.push(entry);
    try {
      await handler(req, res, { body, state, sleep, log });
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(e && e.stack));
    }
    entry.answeredAtMs = Date.now() - started;
  });
});

server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'ready', port: server.address().port }));

parentPort.on('message', (msg) => {
  if (msg.type === 'requests') parentPort.postMessage({ type: 'requests', log });
  if (msg.type === 'close') {
    server.closeAllConnections();
    server.close(() => parentPort.postMessage({ type: 'closed' }));
  }
});
