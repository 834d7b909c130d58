'use strict';
// `npm start` as a user stops it: SIGTERM to npm (what a process manager or an IDE's stop button sends) and the
// end of the process that started the playground both stop the page server and the sandbox, not npm alone.
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const START_SCRIPT = require('../../package.json').scripts.start;
// Bounds for a loaded machine, only to name what failed: the tests go on as soon as their condition holds.
const START_MS = 60_000;
const END_MS = 30_000;

/** Starts `command` in a shell of its own process group; resolves with the child and the printed addresses. */
function startPlayground(command, args) {
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  // Every process of the group writes to these pipes: both closed means the playground's process is gone too.
  const gone = Promise.all(
    ['stdout', 'stderr'].map((s) => new Promise((done) => child[s].once('close', done))),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no playground after ${START_MS / 1000} s:\n${out}`)),
      START_MS,
    );
    const read = (chunk) => {
      out += chunk;
      const urls = [...out.matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
      if (urls.length >= 3 && /Ctrl\+C stops/.test(out)) {
        clearTimeout(timer);
        resolve({ child, ports: urls.slice(0, 3), gone, output: () => out });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', () => reject(new Error(`exited before starting:\n${out}`)));
  });
}

function listening(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * Waits until the playground's process has ended (its output pipes closed), then answers which of its ports
 * still answer (none: the page server and the sandbox went with it). A playground that does not end fails with
 * what it printed.
 */
async function openAfterEnd({ gone, ports, output }) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`still running ${END_MS / 1000} s later:\n${output()}`)),
      END_MS,
    );
  });
  try {
    await Promise.race([gone, late]);
  } finally {
    clearTimeout(timer);
  }
  const open = await Promise.all(ports.map(listening));
  return ports.filter((_, i) => open[i]);
}

/** Whatever is left of a test's processes ends with it. */
function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

test(
  'SIGTERM to `npm start` stops the playground and its sandbox (the script ends in exec)',
  async () => {
    // The start script as package.json has it, the build left out (the tests build dist-local/ already).
    const serve = START_SCRIPT.replace(/^npm run build && /, '');
    expect(serve).toMatch(/^exec node dev\/playground\/start\.js$/);
    const playground = await startPlayground('npm', ['exec', '-c', `${serve} --port 0`]);
    const { child, ports } = playground;
    try {
      expect(await Promise.all(ports.map(listening))).toEqual([true, true, true]);
      process.kill(child.pid, 'SIGTERM'); // npm only, as a process manager stops it
      expect(await openAfterEnd(playground)).toEqual([]);
    } finally {
      killGroup(child);
    }
  },
  START_MS + END_MS + 10_000,
);

test(
  'the playground stops when the process that started it is gone',
  async () => {
    // A shell that waits for node (so it does not pass a signal on), killed outright.
    const playground = await startPlayground('sh', [
      '-c',
      'node dev/playground/start.js --port 0; echo ended',
    ]);
    const { child } = playground;
    try {
      process.kill(child.pid, 'SIGKILL');
      expect(await openAfterEnd(playground)).toEqual([]);
    } finally {
      killGroup(child);
    }
  },
  START_MS + END_MS + 10_000,
);
