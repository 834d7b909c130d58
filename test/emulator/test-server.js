'use strict';
// startTestServer(handler): runs `handler(req, res, { body, state, sleep, log })` in an HTTP server on
// loopback inside a worker thread (the handler is sent as source: it cannot use outer variables).
// Returns { url, port, requests(), close() }.
const path = require('node:path');
const { Worker } = require('node:worker_threads');

function startTestServer(handler) {
  const worker = new Worker(path.join(__dirname, 'test-server-worker.js'), {
    workerData: { handlerSource: handler.toString() },
  });
  const ask = (type, reply) =>
    new Promise((resolve, reject) => {
      worker.ref();
      const onMessage = (m) => {
        if (m.type !== reply) return;
        worker.off('message', onMessage);
        worker.unref();
        resolve(m);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      if (type) worker.postMessage({ type });
    });
  return ask(null, 'ready').then(({ port }) => ({
    port,
    url: `http://127.0.0.1:${port}`,
    /** What the server received: [{ method, url, headers, body, receivedAtMs, answeredAtMs }] (real ms). */
    requests: () => ask('requests', 'requests').then((m) => m.log),
    close: async () => {
      await ask('close', 'closed');
      await worker.terminate();
    },
  }));
}

module.exports = { startTestServer };
