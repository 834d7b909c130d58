'use strict';
// `npm start` as a user stops it: SIGTERM to npm (what a process manager or an IDE's stop button sends) and the
// end of the process that started the playground both stop the page server and the sandbox, not npm alone.
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const START_SCRIPT = require('../../package.json').scripts.start;

/** Starts `command` in a shell of its own process group; resolves with the child and the printed addresses. */
function startPlayground(command, args) {
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no playground after 30 s:\n${out}`)), 30000);
    const read = (chunk) => {
      out += chunk;
      const urls = [...out.matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
      if (urls.length >= 3 && /Ctrl\+C stops/.test(out)) {
        clearTimeout(timer);
        resolve({ child, ports: urls.slice(0, 3), output: () => out });
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

/** Waits until none of the ports answers (true), or gives up after `ms` (false). */
async function allClosed(ports, ms = 10000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const open = await Promise.all(ports.map(listening));
    if (!open.some(Boolean)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** Whatever is left of a test's processes ends with it. */
function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

test('SIGTERM to `npm start` stops the playground and its sandbox (the script ends in exec)', async () => {
  // The start script as package.json has it, the build left out (the tests build dist-local/ already).
  const serve = START_SCRIPT.replace(/^npm run build && /, '');
  expect(serve).toMatch(/^exec node dev\/playground\/start\.js$/);
  const { child, ports } = await startPlayground('npm', ['exec', '-c', `${serve} --port 0`]);
  try {
    expect(await Promise.all(ports.map(listening))).toEqual([true, true, true]);
    process.kill(child.pid, 'SIGTERM'); // npm only, as a process manager stops it
    expect(await allClosed(ports)).toBe(true);
  } finally {
    killGroup(child);
  }
}, 60000);

test('the playground stops when the process that started it is gone', async () => {
  // A shell that waits for node (so it does not pass a signal on), killed outright.
  const { child, ports } = await startPlayground('sh', [
    '-c',
    'node dev/playground/start.js --port 0; echo ended',
  ]);
  try {
    process.kill(child.pid, 'SIGKILL');
    expect(await allClosed(ports)).toBe(true);
  } finally {
    killGroup(child);
  }
}, 60000);
