'use strict';
// The playground's Demo menu (Extensions › Playground demo): data big enough that a send and an unlock go on
// in the progress dialog with its Stop, a slow-service switch, and where the sandbox's bounces and opens come
// from. Everything goes through what a user does: cells written as a paste, searches run by the add-on.

const LIST_ROWS = 7000; // more than a send's unit (6,000 rows) and a minute of the rate limit (60 chunks)
const COMPANY_PAGES = 6; // 300 companies, 50 a search
const SLOW_MS = 5000; // each outreach request takes 5 s of the service clock…
const SLOW_REAL_MS = 500; // …and half a second of yours, time enough to press Stop

const HELP = [
  'Bounces: an address whose name starts with "bounce." (bounce.lee@example.com) fails as a hard bounce about',
  'a minute after it is sent. Opens: an address whose name contains "open" (open.jane@example.com) is opened a',
  'minute after it is sent. Move the service clock on (+1 hour), then Extensions › Outreach › Refresh tracking:',
  'Tracking shows them. The demo list has both kinds. The progress dialog and Stop: add the demo list (or the',
  'demo companies), turn Slow service on, then send to all unsent rows (or select companies and unlock).',
].join(' ');

/** A name for row i of the demo list, and its address: every 10th bounces, every 7th is opened. */
function demoRow(i) {
  const name = `Person ${i}`;
  const local = i % 10 === 0 ? `bounce.person${i}` : i % 7 === 0 ? `open.person${i}` : `person${i}`;
  return [name, `${local}@example.com`, `Company ${1 + (i % 97)}`];
}

async function sandbox(info, method, path, body) {
  const res = await fetch(`${info.outreachUrl}/__sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status}`);
}

const ACTIONS = {
  async 'mailing-list'(host, info) {
    const rows = [['Name', 'Email', 'Company']];
    for (let i = 1; i <= LIST_ROWS; i++) rows.push(demoRow(i));
    const made = await host.call({ op: 'sheet', name: 'Demo list' });
    if (!made.ok) return made;
    const pasted = await host.call({ op: 'paste', sheet: 'Demo list', range: 'A1', values: rows });
    if (!pasted.ok) return pasted;
    // The demo account gets the e-mail credits to send it all (a sandbox account: nothing real is bought).
    await sandbox(info, 'POST', '/accounts', { key: info.keys[0], addonEdm: 10000 });
    return {
      ok: true,
      message: `"Demo list" has ${LIST_ROWS.toLocaleString('en-US')} rows (every 10th bounces, every 7th is opened), and the demo account 10,000 add-on e-mail credits. Compose e-mail… there, then Send to all unsent rows.`,
    };
  },
  async companies(host) {
    for (let page = 0; page < COMPANY_PAGES; page++) {
      const form = { products: 'a', industries: 'e', operator: 'OR', size: 50, from: page * 50 };
      const reply = await host.call({ op: 'run', name: 'searchCompanies', kind: 'webapp', args: [form] });
      if (!reply.ok) return reply;
    }
    return {
      ok: true,
      message: `${COMPANY_PAGES * 50} companies on "Companies": select rows (type A2:A301 in the name box), then Unlock selected companies.`,
    };
  },
  async 'slow-on'(host, info) {
    await sandbox(info, 'DELETE', '/faults');
    await sandbox(info, 'POST', '/faults', {
      path: '/api/',
      kind: 'delay',
      delayMs: SLOW_MS,
      serviceTime: true,
      realMs: SLOW_REAL_MS,
      count: 1000000,
    });
    return {
      ok: true,
      message: `Slow service on: each outreach request takes ${SLOW_MS / 1000} s of the service clock, so long sends and unlocks go on in the progress dialog.`,
    };
  },
  async 'slow-off'(host, info) {
    await sandbox(info, 'DELETE', '/faults');
    return { ok: true, message: 'Slow service off: the sandbox answers at once again.' };
  },
  async help() {
    return { ok: true, message: HELP };
  },
};

/** Runs a demo action; answers { ok, message } or { ok: false, error }. */
async function runDemo(host, info, action) {
  const run = Object.prototype.hasOwnProperty.call(ACTIONS, action) ? ACTIONS[action] : null;
  if (!run) return { ok: false, error: { name: 'Error', message: `No demo action ${action}` } };
  try {
    return await run(host, info);
  } catch (e) {
    return { ok: false, error: { name: 'Error', message: e.message } };
  }
}

module.exports = { runDemo, demoRow, HELP };
