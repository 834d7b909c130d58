'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

test('cli prints both base URLs and the demo keys, serves, and stops on SIGTERM', async () => {
  const child = spawn(process.execPath, [path.join(__dirname, '../../dev/sandbox/cli.js'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ctrl-C')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`cli exited early (${code})`)));
  });
  try {
    const outreach = /Outreach service: (http:\/\/\S+)/.exec(out)[1];
    const phone = /Phone service:\s+(http:\/\/\S+)/.exec(out)[1];
    expect(out).toContain('sandbox-paid');
    expect(out).toContain('sandbox-phone-empty');
    const bal = await fetch(`${outreach}/api/v1/credit/balance`, {
      headers: { Authorization: 'ApiKey sandbox-paid' },
    });
    expect(bal.status).toBe(200);
    const credits = await fetch(`${phone}/api/user/credits`, { headers: { 'x-api-key': 'sandbox-phone' } });
    expect((await credits.json()).result.total).toBe(1000);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
});

test('cli --task-shape per-mail makes one task per personalized mail; a bad shape is refused', async () => {
  const cli = path.join(__dirname, '../../dev/sandbox/cli.js');
  const bad = spawn(process.execPath, [cli, '--port', '0', '--task-shape', 'per-chunk'], { stdio: 'pipe' });
  let err = '';
  bad.stderr.on('data', (d) => (err += d));
  expect(await new Promise((resolve) => bad.once('exit', resolve))).toBe(1);
  expect(err).toMatch(/--task-shape/);
  const child = spawn(process.execPath, [cli, '--port', '0', '--task-shape', 'per-mail'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ctrl-C')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`cli exited early (${code})`)));
  });
  try {
    expect(out).toContain('one task per mail');
    const outreach = /Outreach service: (http:\/\/\S+)/.exec(out)[1];
    const shape = await fetch(`${outreach}/__sandbox/task-shape`);
    expect(await shape.json()).toEqual({ taskShape: 'per-mail' });
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});
