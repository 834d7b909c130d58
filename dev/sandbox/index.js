'use strict';
// The local service sandbox: both services of the specs on loopback, with a shared virtual clock, demo
// accounts, a deterministic data set, fault injection and test controls. See README.md in this folder.

const path = require('node:path');
const { Worker } = require('node:worker_threads');
const { Clock } = require('../clock');
const { SandboxState } = require('./state');
const { createServiceServer, listen, closeServer } = require('./server');
const { generateDataset, searchRow, companyHashIdFor } = require('./data');
const rules = require('./rules');

function baseUrlOf(host, port) {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/**
 * Starts both services in this thread.
 * @param {{port?: number, phonePort?: number, host?: string, clock?: Clock, seed?: number, taskShape?: string, bounces?: boolean}} [options]
 *   port/phonePort 0 = a free port each; taskShape 'per-request' (default) or 'per-mail' (see setTaskShape);
 *   bounces: some contacts' addresses start with "bounce." (data.js withBounces; the playground's data).
 * @returns {Promise<{outreachUrl: string, phoneUrl: string, state: SandboxState, close(): Promise<void>}>}
 */
async function startSandbox({
  port = 0,
  phonePort = 0,
  host = '127.0.0.1',
  clock = Clock.real(),
  seed = 42,
  taskShape = 'per-request',
  bounces = false,
} = {}) {
  const state = new SandboxState({ clock, seed, taskShape, bounces });
  let outreachUrl = '';
  let phoneUrl = '';
  const outreach = createServiceServer(state, 'outreach', () => outreachUrl);
  const phone = createServiceServer(state, 'phone', () => phoneUrl);
  try {
    outreachUrl = baseUrlOf(host, await listen(outreach, port, host));
    phoneUrl = baseUrlOf(host, await listen(phone, phonePort, host));
  } catch (err) {
    await Promise.all([closeServer(outreach), closeServer(phone)]);
    throw err;
  }
  let closing = null;
  return {
    outreachUrl,
    phoneUrl,
    state,
    close() {
      closing ||= Promise.all([closeServer(outreach), closeServer(phone)]).then(() => undefined);
      return closing;
    },
  };
}

/**
 * Starts the sandbox inside a worker_threads Worker sharing `clock` (through clock.buffer), so it keeps
 * answering while the calling thread is blocked in Atomics.wait (the emulator's synchronous UrlFetch).
 * @param {{clock?: Clock, port?: number, phonePort?: number, seed?: number, host?: string, bounces?: boolean}} [options]
 * @returns {Promise<{outreachUrl: string, phoneUrl: string, stop(): Promise<void>}>}
 */
function startSandboxInWorker({
  clock = Clock.real(),
  port = 0,
  phonePort = 0,
  seed = 42,
  host = '127.0.0.1',
  taskShape = 'per-request',
  bounces = false,
} = {}) {
  const worker = new Worker(path.join(__dirname, 'worker.js'), {
    workerData: { buffer: clock.buffer, port, phonePort, seed, host, taskShape, bounces },
  });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  return new Promise((resolve, reject) => {
    const onError = (err) => reject(err);
    worker.once('error', onError);
    worker.once('message', (msg) => {
      worker.off('error', onError);
      if (msg.type !== 'ready') {
        worker.terminate();
        reject(new Error(msg.error || 'sandbox worker failed to start'));
        return;
      }
      // A crash after start-up is reported, not thrown at the caller's event loop.
      worker.on('error', (err) => console.error('sandbox worker error:', err));
      let stopping = null;
      resolve({
        outreachUrl: msg.outreachUrl,
        phoneUrl: msg.phoneUrl,
        stop() {
          stopping ||= (async () => {
            worker.postMessage({ type: 'stop' });
            const timer = setTimeout(() => worker.terminate(), 2000);
            await exited;
            clearTimeout(timer);
          })();
          return stopping;
        },
      });
    });
  });
}

/** The data set of `seed` (same as a sandbox started with that seed): companies, fixtures, lookups. */
const dataset = (seed = 42) => generateDataset(seed);

module.exports = {
  startSandbox,
  startSandboxInWorker,
  dataset,
  generateDataset,
  searchRow,
  companyHashIdFor,
  Clock,
  SandboxState,
  DEMO_KEYS: rules.DEMO_KEYS,
  OUTREACH_ACCOUNTS: rules.OUTREACH_ACCOUNTS,
  PHONE_ACCOUNTS: rules.PHONE_ACCOUNTS,
  TIMINGS: rules.TIMINGS,
  RATE_LIMITS: rules.RATE_LIMITS,
  MONTHLY_VALIDITY_MS: rules.MONTHLY_VALIDITY_MS,
  UNLOCK_FREE_WINDOW_MS: rules.UNLOCK_FREE_WINDOW_MS,
  PHONE_HTTP_STATUS: rules.PHONE_HTTP_STATUS,
  PHONE_MESSAGES: rules.PHONE_MESSAGES,
  isValidPhone: rules.isValidPhone,
  isRegisteredPhone: rules.isRegisteredPhone,
  registeredPhoneNumber: rules.registeredPhoneNumber,
  unregisteredPhoneNumber: rules.unregisteredPhoneNumber,
  mailOutcome: rules.mailOutcome,
  cleanTaskSubject: rules.cleanTaskSubject,
  substituteVariables: rules.substituteVariables,
};
