'use strict';
// `npm start`: the add-on working in a real browser, offline. The service sandbox runs in a worker, the
// built add-on (dist-local-gmail/: dist/ with the sandbox allowed and reply detection from Gmail) runs in the
// Apps Script emulator in a worker, whose Gmail receives the sandbox's answers to the mails sent, and a
// local page on 127.0.0.1 shows the spreadsheet, the Extensions menu, toasts, alerts, sidebars and dialogs.
// `npm start` builds first; this script builds nothing. Options: --port N (default 8080; 0 = a free port).
const fs = require('node:fs');
const path = require('node:path');
const { Clock } = require('../clock');
const { startSandboxInWorker, DEMO_KEYS } = require('../sandbox');
const { EmulatorHost } = require('./host');
const { createPlaygroundServer } = require('./server');

const ROOT = path.join(__dirname, '..', '..');
const DEFAULT_PORT = 8080;
const DEMO_UNSUBSCRIBE = 'unsubscribe@seller.example';

/** Top-level function names of the built bundle that google.script.run may call (not ending in `_`). */
function entryPointNames(codePath) {
  const code = fs.readFileSync(codePath, 'utf8');
  const names = new Set();
  for (const m of code.matchAll(/^function\s+([A-Za-z_$][\w$]*)\s*\(/gm)) {
    if (!m[1].endsWith('_')) names.add(m[1]);
  }
  return [...names];
}

/**
 * Starts the sandbox, the emulator (settings prefilled with the demo keys, onOpen run) and the page server.
 * @param {{ port?: number, host?: string, codePath?: string, htmlDir?: string, emulatorOptions?: object }} [options]
 *   emulatorOptions: more AppsScriptEmulator options (tests: a short realTimeoutMs)
 * @returns {Promise<{ url: string, outreachUrl: string, phoneUrl: string, stop(): Promise<void> }>}
 */
async function startPlayground({
  port = DEFAULT_PORT,
  host = '127.0.0.1',
  // The local build with reply detection: dist/ with the loopback sandbox in its URL allowlist, the Gmail
  // scope and advanced service (rollup.config.mjs), so the demo shows replies read from Gmail.
  codePath = path.join(ROOT, 'dist-local-gmail', 'Code.js'),
  htmlDir = path.join(ROOT, 'dist-local-gmail'),
  emulatorOptions = {},
  // The demo list's size (demo.js): tests that need no 7,000 rows take fewer.
  demoListRows,
  // How much faster the add-on's pages run their timers (bridge.js): a test's, so a poll comes sooner.
  frameTimerScale,
} = {}) {
  if (!fs.existsSync(codePath)) {
    throw new Error(
      `${path.relative(ROOT, codePath)} is missing: run \`npm run build\` (npm start does it).`,
    );
  }
  const clock = Clock.real();
  // Some contacts bounce (sandbox README §5), so a tour sees a failure and a colleague to write to instead.
  const sandbox = await startSandboxInWorker({ clock, bounces: true });
  let emulator = null;
  let web = null;
  const stop = async () => {
    if (web) await web.close();
    if (emulator) await emulator.stop();
    await sandbox.stop();
  };
  try {
    emulator = new EmulatorHost({
      clock,
      codePath,
      htmlDir,
      emulatorOptions,
      mailboxUrl: sandbox.outreachUrl,
    });
    const settings = {
      outreachApiKey: DEMO_KEYS.paid,
      outreachBaseUrl: sandbox.outreachUrl,
      phoneApiKey: DEMO_KEYS.phone,
      phoneBaseUrl: sandbox.phoneUrl,
      // The demo user owns the demo spreadsheet and lets =PHONE_CHECK spend its credits.
      allowPhoneFormulas: true,
      // Where {{Unsubscribe}} lines point (a user sets theirs in Settings).
      unsubscribeAddress: DEMO_UNSUBSCRIBE,
    };
    const ready = await emulator.call({ op: 'init', settings });
    if (!ready.ok) throw new Error(`the add-on did not start: ${ready.error && ready.error.message}`);
    const info = {
      outreachUrl: sandbox.outreachUrl,
      phoneUrl: sandbox.phoneUrl,
      keys: [DEMO_KEYS.paid, DEMO_KEYS.phone],
      functions: entryPointNames(codePath),
      warnings: ready.warnings || [],
      demoListRows,
      frameTimerScale,
    };
    web = createPlaygroundServer(emulator, { info });
    await new Promise((resolve, reject) => {
      web.server.once('error', reject);
      web.server.listen(port, host, () => {
        web.server.off('error', reject);
        resolve();
      });
    });
    const url = `http://${host}:${web.server.address().port}/`;
    let stopping = null;
    return {
      url,
      outreachUrl: sandbox.outreachUrl,
      phoneUrl: sandbox.phoneUrl,
      warnings: info.warnings,
      emulator,
      stop: () => (stopping ||= stop()),
    };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const m = /^--port(?:=(.*))?$/.exec(arg);
    if (m) {
      const value = m[1] !== undefined ? m[1] : argv[++i];
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`--port needs 0..65535, got ${value}`);
      options.port = port;
    } else if (arg === '--help' || arg === '-h') {
      options.help = true;
    } else {
      throw new Error(`unknown option ${arg} (try --help)`);
    }
  }
  return options;
}

async function main() {
  // Read before anything is printed: a parent that ends right after reading the addresses must still be seen go.
  const parent = process.ppid;
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(err.message);
    process.exit(2);
  }
  if (options.help) {
    console.log('Usage: npm start [-- --port N]   (default 8080; 0 picks a free port)');
    return;
  }
  const playground = await startPlayground({ port: options.port });
  playground.emulator.on('failed', (err) => console.error(`The emulator stopped: ${err.message}`));
  console.log(`Playground:        ${playground.url}`);
  console.log(`Outreach sandbox:  ${playground.outreachUrl}  (key ${DEMO_KEYS.paid})`);
  console.log(`Phone sandbox:     ${playground.phoneUrl}  (key ${DEMO_KEYS.phone})`);
  for (const warning of playground.warnings) console.warn(`Note: ${warning}`);
  console.log('Open the page and use Extensions › Outreach. Ctrl+C stops.');
  stopWithParent(playground, { parent });
}

/**
 * Ctrl+C, SIGTERM (npm forwards it to the script it runs) and a closed terminal stop the page server, the
 * emulator and the sandbox; so does the end of the process that started this one (`npm start` killed
 * outright, or a shell in between that did not pass the signal on), which a poll of the parent's pid sees.
 */
function stopWithParent(playground, { parent, pollMs = 1000 }) {
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    clearInterval(watch);
    console.log('\nStopping…');
    // Whatever hangs (a browser holding a connection), the process ends within a few seconds.
    setTimeout(() => process.exit(1), 5000).unref();
    playground.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  const watch = setInterval(() => {
    if (process.ppid !== parent) shutdown();
  }, pollMs);
  watch.unref();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, shutdown);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`Playground failed to start: ${err.message}`);
    if (err.code === 'EADDRINUSE') console.error('That port is taken: try `npm start -- --port 0`.');
    process.exit(1);
  });
}

module.exports = { startPlayground, entryPointNames, parseArgs };
