'use strict';
// Shared set-up for tests that run the built add-on in the Apps Script emulator against the service sandbox,
// on one virtual clock. The add-on is dist-local/: the same build as dist/, whose URL allowlist also has the
// loopback sandbox; the emulator enforces that build's manifest urlFetchWhitelist, as Apps Script does.
const http = require('node:http');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Clock } = require('../../dev/clock');
const { startSandboxInWorker, DEMO_KEYS, dataset } = require('../../dev/sandbox');
const { AppsScriptEmulator } = require('../emulator');
const { sandboxMailbox } = require('../emulator/gmail-sandbox');

const ROOT = path.join(__dirname, '..', '..');
/** The local build: dist/ plus the loopback sandbox in its URL allowlist (see rollup.config.mjs). */
const LOCAL_DIST = path.join(ROOT, 'dist-local');
/** The same with reply detection from Gmail (REPLY_DETECTION=gmail: Gmail scope and advanced service). */
const LOCAL_GMAIL_DIST = path.join(ROOT, 'dist-local-gmail');
/** Where the add-on keeps a user's outreach key (src/platform/settings.ts): whose mails a mailbox answers. */
const OUTREACH_KEY_PROPERTY = 'settings.outreachApiKey';

/**
 * The Gmail of each user receives what the sandbox's mailbox answers to the mails sent with the outreach key
 * that user saved (reply./ooo./unsub./bounce. addresses, an hour after their mail).
 */
function sandboxGmail(emu, sandbox) {
  return sandboxMailbox(sandbox.outreachUrl, (user) =>
    emu.properties.forUser(user).getProperty(OUTREACH_KEY_PROPERTY),
  );
}

async function startServices() {
  const clock = Clock.virtual();
  const sandbox = await startSandboxInWorker({ clock });
  return { clock, sandbox };
}

/**
 * Registers the suite's hooks: one sandbox for the file (on a virtual clock), reset before each test. The
 * returned object gets `clock` and `sandbox` once the suite starts, so it can be passed to newAddon().
 */
function useServices() {
  const services = {};
  beforeAll(async () => Object.assign(services, await startServices()));
  afterAll(() => services.sandbox.stop());
  beforeEach(() => control(services.sandbox.outreachUrl, 'POST', '/reset'));
  return services;
}

/**
 * A sandbox control call (async, from the test itself). Each call opens its own connection (no keep-alive
 * agent): a connection left idle while an execution blocked this thread for minutes may have been closed by
 * the server ("other side closed"). A call that fails on the network is tried once more.
 */
async function control(baseUrl, method, route, body) {
  try {
    return await controlOnce(baseUrl, method, route, body);
  } catch (error) {
    if (error && error.httpStatus) throw error;
    return controlOnce(baseUrl, method, route, body);
  }
}

function controlOnce(baseUrl, method, route, body) {
  const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
  const headers = { 'content-type': 'application/json', connection: 'close' };
  if (payload) headers['content-length'] = payload.length;
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}/__sandbox${route}`,
      { method, headers, agent: false },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve(JSON.parse(text));
          } catch {
            const error = new Error(
              `sandbox ${method} ${route}: ${response.statusCode} ${text.slice(0, 200)}`,
            );
            error.httpStatus = response.statusCode;
            reject(error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(payload || undefined);
  });
}

/**
 * The same, synchronously: for use while an execution is running (inside an alert answer), when this
 * thread is blocked and cannot await.
 */
function controlSync(baseUrl, method, route, body) {
  const script = `fetch(process.argv[1], { method: process.argv[2], headers: { 'content-type': 'application/json' },
    body: process.argv[3] || undefined }).then((r) => r.text()).then((t) => process.stdout.write(t))`;
  const out = execFileSync(process.execPath, [
    '-e',
    script,
    `${baseUrl}/__sandbox${route}`,
    method,
    body ? JSON.stringify(body) : '',
  ]);
  return JSON.parse(out.toString());
}

/**
 * A fresh add-on (new emulator) with the given keys saved through its own Settings endpoint, by the
 * document's owner. `allowPhoneFormulas`: the owner's switch that lets =PHONE_CHECK spend credits.
 * `gmail: true`: the build with reply detection (dist-local-gmail/), whose users' Gmail receives the sandbox's
 * answers to their mails (emu.gmail holds the mailboxes; emu.gmail.deliver adds a message).
 */
function newAddon(
  { clock, sandbox },
  {
    outreachKey = DEMO_KEYS.paid,
    phoneKey = DEMO_KEYS.phone,
    allowPhoneFormulas,
    dist,
    gmail = false,
    ...options
  } = {},
) {
  const built = dist || (gmail ? LOCAL_GMAIL_DIST : LOCAL_DIST);
  const emu = new AppsScriptEmulator({
    codePath: path.join(built, 'Code.js'),
    htmlDir: built,
    clock,
    enforceUrlFetchWhitelist: true,
    ...options,
  });
  if (gmail && !options.gmailIncoming) emu.gmail.incoming = sandboxGmail(emu, sandbox);
  const settings = { outreachBaseUrl: sandbox.outreachUrl, phoneBaseUrl: sandbox.phoneUrl };
  if (outreachKey) settings.outreachApiKey = outreachKey;
  if (phoneKey) settings.phoneApiKey = phoneKey;
  if (allowPhoneFormulas !== undefined) settings.allowPhoneFormulas = allowPhoneFormulas;
  emu.run('saveSettings', [settings], { kind: 'webapp' });
  emu.run('onOpen', [{ authMode: 'FULL' }], { kind: 'simple', authMode: 'FULL' });
  emu.resetStats();
  return emu;
}

/**
 * Builds a test bundle from its rollup config (see test/support/rollup-harness.mjs) with the project's
 * rollup; a type error or a failed build throws with rollup's output.
 */
function buildHarness(configPath) {
  const rollup = path.join(ROOT, 'node_modules', 'rollup', 'dist', 'bin', 'rollup');
  try {
    execFileSync(process.execPath, [rollup, '-c', configPath, '--silent'], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    throw new Error(`Building ${configPath} failed:\n${error.stderr || error.message}`, { cause: error });
  }
}

/** Every value and note of every sheet, as one string: to prove what is NOT written anywhere. */
function everythingWritten(emu) {
  return JSON.stringify(emu.snapshot());
}

/**
 * Runs `action` once, when the add-on sends its first phone check (the user acts while numbers are on the
 * wire). Returns a function that tells whether it ran.
 */
function onFirstCheck(emu, action) {
  let done = false;
  emu.onFetch = (entries) => {
    if (done || !entries.some((e) => e.url.includes('/api/wa/check'))) return;
    done = true;
    action();
  };
  return () => done;
}

/**
 * The document property that holds a user's saved job of this kind (`job.<kind>.<user token>`; the user at
 * the keyboard by default). Its progress and stop flag are `<key>.progress` and `<key>.stop`.
 */
function jobKey(emu, kind, user = emu.users.active) {
  const token = emu.properties.forUser(user).getProperty('timer.userToken');
  return `job.${kind}.${token}`;
}

/**
 * Runs the progress dialog's steps (continueJob) until the job of `kind` ends, at most `maxSteps` of them.
 * Answers the last step's progress and how many steps ran.
 */
function driveToEnd(emu, kind, maxSteps = 50) {
  let progress;
  let steps = 0;
  do {
    progress = emu.run('continueJob', [kind], { kind: 'webapp' });
    steps++;
  } while (!progress.finished && steps < maxSteps);
  return { progress, steps };
}

module.exports = {
  driveToEnd,
  jobKey,
  startServices,
  onFirstCheck,
  useServices,
  control,
  controlSync,
  newAddon,
  everythingWritten,
  buildHarness,
  DEMO_KEYS,
  dataset,
  ROOT,
  LOCAL_DIST,
  LOCAL_GMAIL_DIST,
  sandboxGmail,
};
