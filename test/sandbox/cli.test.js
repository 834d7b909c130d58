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
