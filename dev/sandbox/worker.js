'use strict';
// Worker entry of startSandboxInWorker: attaches to the caller's clock buffer and serves until told to stop.

const { parentPort, workerData } = require('node:worker_threads');
const { Clock } = require('../clock');
const { startSandbox } = require('./index');

(async () => {
  try {
    const { buffer, port, phonePort, seed, host, taskShape, bounces } = workerData;
    const sandbox = await startSandbox({
      port,
      phonePort,
      seed,
      host,
      taskShape,
      bounces,
      clock: new Clock(buffer),
    });
    parentPort.on('message', async (msg) => {
      if (msg && msg.type === 'stop') {
        await sandbox.close();
        parentPort.close();
      }
    });
    parentPort.postMessage({ type: 'ready', outreachUrl: sandbox.outreachUrl, phoneUrl: sandbox.phoneUrl });
  } catch (err) {
    parentPort.postMessage({ type: 'error', error: String((err && err.message) || err) });
  }
})();
