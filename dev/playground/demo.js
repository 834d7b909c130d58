'use strict';
// The playground's Demo menu (Extensions › Playground demo): data big enough that a send and an unlock go on
// in the progress dialog with its Stop, a slow-service switch, and where the sandbox's bounces and opens come
// from. Everything goes through what a user does: cells written as a paste, searches run by the add-on.

const LIST_ROWS = 7000; // more than a send's unit (6,000 rows) and a minute of the rate limit (60 chunks)
const COMPANY_PAGES = 6; // 300 companies, 50 a search
const SLOW_MS = 5000; // each outreach request takes 5 s of the service clock…
const SLOW_REAL_MS = 500; // …and half a second of yours, time enough to press Stop

const FIRST_CONTACTS = 'First contacts';

const HELP = [
  'Bounces: an address whose name starts with "bounce." (bounce.lee@example.com) fails as a hard bounce about',
  "a minute after it is sent; in every third company with two contacts or more, the first contact's address does.",
  'Opens: an address whose name contains "open" (open.jane@example.com) is opened a',
  'minute after it is sent. Move the service clock on (+1 hour), then Extensions › Outreach › Refresh tracking:',
  'Tracking shows them. Answers, in your Gmail an hour after the mail: "reply." (reply.ann@example.com)',
  'replies, "ooo." is out of office until a date, "unsub." asks to be removed, and a "bounce." address sends',
  'a delivery failure notice. The demo list has every kind. The progress dialog and Stop: add the demo list (or',
  'the demo companies), turn Slow service on, then send to all unsent rows (or select companies and unlock).',
].join(' ');

/** The first kind whose step divides row i: every 10th bounces, then replies, out of office, unsubscribes, opens. */
const DEMO_KINDS = [
  [10, 'bounce.'],
  [11, 'reply.'],
  [13, 'ooo.'],
  [17, 'unsub.'],
  [7, 'open.'],
];

const COMPANIES = 97;

/**
 * Row i of the demo list (the sheet's row i + 1): Person i of Company 1 + (i - 1) mod 97, at that company's own
 * domain (company1.example …: a reply stops that company's colleagues, not everyone), its kind: DEMO_KINDS.
 */
function demoRow(i) {
  const company = 1 + ((i - 1) % COMPANIES);
  const kind = DEMO_KINDS.find(([step]) => i % step === 0);
  return [`Person ${i}`, `${kind ? kind[1] : ''}person${i}@company${company}.example`, `Company ${company}`];
}

/** Rows of the bounce-spike list: its first 100 people, every third address bounces (33 %); the other 200 none. */
const SPIKE_ROWS = 300;

/** Row i of the bounce-spike list (the sheet's row i + 1). */
function spikeRow(i) {
  const company = 1 + ((i - 1) % COMPANIES);
  const bounces = i <= 100 && i % 3 === 0;
  return [
    `Person ${i}`,
    `${bounces ? 'bounce.' : ''}spike${i}@company${company}.example`,
    `Company ${company}`,
  ];
}

/** "row 2" or "rows 2–7,001". */
function rowsText(first, last) {
  const n = (i) => i.toLocaleString('en-US');
  return first === last ? `row ${n(first)}` : `rows ${n(first)}–${n(last)}`;
}

/** A sheet's cells as they show ([] when there is no such sheet). */
async function values(host, name) {
  const reply = await host.call({ op: 'values', name });
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.result;
}

/** The sheet's last row with a value (0 when it is missing or empty). */
async function rowCount(host, name) {
  return (await values(host, name)).length;
}

async function sandbox(info, method, path, body) {
  const res = await fetch(`${info.outreachUrl}/__sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status}`);
  return res.json();
}

const DEMO_EDM = 10000;
const credited = new WeakSet(); // the playgrounds (hosts) whose demo account got its demo credits

/**
 * The demo account gets DEMO_EDM add-on e-mail credits the first time the demo list is added (a sandbox
 * account: nothing real is bought), added to what it has; adding the list again adds none (it never puts
 * back what was spent). Answers the words for the toast.
 */
async function demoCredits(host, info) {
  const key = info.keys[0];
  const before = (await sandbox(info, 'GET', '/accounts')).outreach[key];
  const has = before ? before.addonEdm : 0;
  if (credited.has(host))
    return `the demo account has ${has.toLocaleString('en-US')} add-on e-mail credits left`;
  credited.add(host);
  await sandbox(info, 'POST', '/accounts', { key, addonEdm: has + DEMO_EDM });
  return `the demo account got ${DEMO_EDM.toLocaleString('en-US')} add-on e-mail credits (${(has + DEMO_EDM).toLocaleString('en-US')} now)`;
}

/**
 * A list of `n` rows (`row(i)`: Name, Email, Company) pasted on the sheet `name` (made when missing), and the demo
 * credits; answers the toast's words of the credits, or the host's failure.
 */
async function addList(host, info, name, n, row) {
  const rows = [['Name', 'Email', 'Company']];
  for (let i = 1; i <= n; i++) rows.push(row(i));
  const made = await host.call({ op: 'sheet', name });
  if (!made.ok) return { failed: made };
  const pasted = await host.call({ op: 'paste', sheet: name, range: 'A1', values: rows });
  if (!pasted.ok) return { failed: pasted };
  return { credits: await demoCredits(host, info) };
}

const ACTIONS = {
  async 'mailing-list'(host, info) {
    const listRows = info.demoListRows || LIST_ROWS;
    const { failed, credits } = await addList(host, info, 'Demo list', listRows, demoRow);
    if (failed) return failed;
    return {
      ok: true,
      message: `"Demo list" has ${listRows.toLocaleString('en-US')} rows (${rowsText(2, listRows + 1)}: ${COMPANIES} companies, each on its own domain; every 10th bounces; of the others every 11th replies, every 13th is out of office, every 17th asks to be removed, every 7th opens), and ${credits}. Compose e-mail… there, then Send to all unsent rows.`,
    };
  },
  // The bounce guard's demo: a list whose first 100 addresses bounce at 33 %.
  async 'spike-list'(host, info) {
    const { failed, credits } = await addList(host, info, 'Spike list', SPIKE_ROWS, spikeRow);
    if (failed) return failed;
    return {
      ok: true,
      message: `"Spike list" has ${SPIKE_ROWS} rows (${rowsText(2, SPIKE_ROWS + 1)}): of its first 100, every third bounces; ${credits}. Compose e-mail… there with at most 100 mails an hour, Send to all unsent rows, then +1 hour: the hourly run reads the bounces and pauses the list (its rows say Paused: bounce rate 33 % (33 of 100)); Resume a paused list goes on.`,
    };
  },
  async companies(host) {
    const before = await rowCount(host, 'Companies');
    for (let page = 0; page < COMPANY_PAGES; page++) {
      const form = { products: 'a', industries: 'e', operator: 'OR', size: 50, from: page * 50 };
      const reply = await host.call({ op: 'run', name: 'searchCompanies', kind: 'webapp', args: [form] });
      if (!reply.ok) return reply;
    }
    const after = await rowCount(host, 'Companies');
    const first = Math.max(before, 1) + 1;
    return {
      ok: true,
      message: `${after - first + 1} companies on "Companies" (${rowsText(first, after)}): select them (type A${first}:A${after} in the name box), then Unlock selected companies.`,
    };
  },
  // What a user does in Sheets to write to one person per company: copy the first contact of each company on
  // Contacts (with the header row) to a sheet of their own. Its bounces leave colleagues on Contacts.
  async 'first-contacts'(host) {
    const contacts = await values(host, 'Contacts');
    if (contacts.length < 2)
      return {
        ok: false,
        error: {
          name: 'Error',
          message: 'Contacts is empty: unlock some companies first (Extensions › Outreach).',
        },
      };
    const company = contacts[0].indexOf('Company hash ID');
    const seen = new Set();
    const rows = [contacts[0]];
    for (const row of contacts.slice(1)) {
      if (row.every((v) => v === '') || seen.has(row[company])) continue;
      seen.add(row[company]);
      // Text stays text, as a copy in Sheets keeps it (a name starting with "=" is no formula).
      rows.push(row.map((text) => (text === '' ? '' : `'${text}`)));
    }
    const made = await host.call({ op: 'sheet', name: FIRST_CONTACTS });
    if (!made.ok) return made;
    const pasted = await host.call({ op: 'paste', sheet: FIRST_CONTACTS, range: 'A1', values: rows });
    if (!pasted.ok) return pasted;
    return {
      ok: true,
      message: `"${FIRST_CONTACTS}" has the first contact of each of the ${rows.length - 1} companies on Contacts (${rowsText(2, rows.length)}), as you would copy them: Compose e-mail… there.`,
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
      message: `Slow service on: each outreach request takes ${SLOW_MS / 1000} s of the service clock (${SLOW_REAL_MS / 1000} s of yours), so long sends and unlocks go on in the progress dialog; the service clock, and the dialog's Elapsed, run ahead of yours.`,
    };
  },
  async 'slow-off'(host, info) {
    await sandbox(info, 'DELETE', '/faults');
    return { ok: true, message: 'Slow service off: the sandbox answers at once again.' };
  },
  // The user's Gmail as a mail client would list it: what reply., ooo., unsub. and bounce. addresses answered.
  async inbox(host) {
    const reply = await host.call({ op: 'inbox' });
    if (!reply.ok) return reply;
    const box = reply.result;
    if (!box) {
      return {
        ok: true,
        message: 'This build reads no Gmail: npm start runs the build with reply detection.',
      };
    }
    if (box.total === 0) {
      return {
        ok: true,
        message: `Nothing in ${box.user}'s Gmail yet. Send to reply./ooo./unsub./bounce. addresses (the demo list has them), then move the service clock on (+1 hour): they answer an hour after the mail.`,
      };
    }
    const lines = box.messages.slice(0, 6).map((m) => `${m.from}: "${m.subject}" (${m.text.split('\n')[0]})`);
    const more = box.total > lines.length ? ` …and ${box.total - lines.length} more.` : '';
    return { ok: true, message: `${box.user}'s Gmail, newest first: ${lines.join(' · ')}${more}` };
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

module.exports = { runDemo, demoRow, spikeRow, rowsText, HELP };
