'use strict';
// Through the built bundle, seeded: Ann (the payer) sends a list while Bob, an editor, changes the sheet at
// random points — while Ann's confirmation is open, during a post (the emulator's fetch hook) and between runs — with lost answers, 502s and
// executions cut off at their time limit mixed in. Whatever happened, after each sequence: no address got the
// mail twice; no hour carried more mails than Ann's confirmed hourly limit; every mail went to an address Ann
// confirmed; every mail whose row Bob left alone is on its row; no cell of Bob's columns was written.
// `npm run fuzz -- --runs N` runs N sequences (FUZZ_RUNS), `FUZZ_SEED=s` starts elsewhere.
const { useServices, control, newAddon, DEMO_KEYS, jobKey } = require('../support/harness');
const { rowsOf } = require('../support/sheets');
const { mulberry32: random } = require('../emulator');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const RUNS = Number(process.env.FUZZ_RUNS) || 200;
const FIRST_SEED = Number(process.env.FUZZ_SEED) || 1;
const HOUR = 3600_000;
const BOB = 'bob@example.com';
const LIST = 'Leads';
const SEND_PATH = '/api/v1/emails/send/personalized';

/** One sequence's world: the list, what Ann confirmed, which rows Bob touched. */
class World {
  constructor(seed) {
    this.rand = random(seed);
    this.size = 3 + this.int(10);
    this.emails = Array.from({ length: this.size }, (_, i) => `s${seed}p${i}@example.com`);
    this.limit = this.rand() < 0.3 ? 2 + this.int(4) : 0;
    this.mail = { campaign: `Fuzz ${seed}`, subject: 'Hello {{Name}}', body: 'Dear {{Name}}' };
    if (this.limit) this.mail.hourlyLimit = this.limit;
    this.templateLimit = this.limit; // the template's as it is now (Bob may change it)
    this.confirmedLimits = [];
    this.confirmed = new Set();
    this.touched = new Set(); // addresses whose row Bob cleared, deleted or retyped: their view may differ
    this.notes = 0;
    this.log = [];
  }

  int(n) {
    return Math.floor(this.rand() * n);
  }

  pick(items) {
    return items[this.int(items.length)];
  }

  sheet() {
    return emu.spreadsheet.getSheetByName(LIST);
  }

  header() {
    const s = this.sheet();
    return s ? s.getRange(1, 1, 1, s.getLastColumn()).getValues()[0] : [];
  }
}

// Bob's edits. Each keeps the user's data whole (Name and Email move together) and says what it touched.
const EDITS = {
  insertColumn(w) {
    const s = w.sheet();
    const at = 1 + w.int(s.getLastColumn()); // before any column, A included
    s.insertColumnBefore(at);
    s.getRange(1, at).setValue(`Note ${++w.notes}`);
    const rows = s.getLastRow() - 1;
    if (rows < 1) return;
    const emails = s.getRange(2, w.header().indexOf('Email') + 1, rows, 1).getValues();
    s.getRange(2, at, rows, 1).setValues(emails.map(([e]) => [`n:${e}`]));
  },
  deleteNoteColumn(w) {
    const notes = w.header().flatMap((h, i) => (/^Note /.test(h) ? [i + 1] : []));
    if (notes.length) w.sheet().deleteColumn(w.pick(notes));
  },
  deleteAddonColumn(w) {
    const own = w
      .header()
      .flatMap((h, i) => (['Mail status', 'Task ID', 'Mail ID', 'Sent at'].includes(h) ? [i + 1] : []));
    if (!own.length) return;
    w.sheet().deleteColumn(w.pick(own));
    for (const e of w.emails) w.touched.add(e);
  },
  deleteRow(w) {
    const s = w.sheet();
    if (s.getLastRow() < 2) return;
    const row = 2 + w.int(s.getLastRow() - 1);
    const email = s.getRange(row, w.header().indexOf('Email') + 1).getValue();
    s.deleteRow(row);
    w.touched.add(email);
  },
  retypeRow(w) {
    const s = w.sheet();
    const email = w.pick(w.emails);
    const header = w.header();
    s.appendRow(
      header.map((h) =>
        h === 'Email' ? email : h === 'Name' ? nameOf(email) : /^Note /.test(h) ? `n:${email}` : '',
      ),
    );
    w.touched.add(email);
  },
  sort(w) {
    const s = w.sheet();
    if (s.getLastRow() < 3) return;
    const col = 1 + w.int(s.getLastColumn());
    s.getRange(2, 1, s.getLastRow() - 1, s.getLastColumn()).sort({ column: col, ascending: w.rand() < 0.5 });
  },
  clearIds(w) {
    const s = w.sheet();
    const header = w.header();
    const cols = ['Mail status', 'Task ID', 'Mail ID', 'Sent at']
      .map((h) => header.indexOf(h) + 1)
      .filter((c) => c > 0);
    if (s.getLastRow() < 2 || !cols.length) return;
    const emailCol = header.indexOf('Email') + 1;
    for (let row = 2; row <= s.getLastRow(); row++)
      if (w.rand() < 0.5) {
        for (const c of cols) s.getRange(row, c).clearContent();
        w.touched.add(s.getRange(row, emailCol).getValue());
      }
  },
  typeQueued(w) {
    const s = w.sheet();
    const col = w.header().indexOf('Mail status') + 1;
    if (s.getLastRow() < 2 || col === 0) return;
    const row = 2 + w.int(s.getLastRow() - 1);
    s.getRange(row, col).setValue('Queued');
    w.touched.add(s.getRange(row, w.header().indexOf('Email') + 1).getValue());
  },
  rename(w) {
    w.sheet().setName(`${LIST} ${w.int(100)}`);
    w.sheet = () => emu.spreadsheet.getSheets().find((s) => s.getName().startsWith(LIST)) || null;
  },
  recreate(w) {
    const s = w.sheet();
    const values = s.getDataRange().getValues();
    const name = s.getName();
    emu.spreadsheet.deleteSheet(s);
    const fresh = emu.spreadsheet.insertSheet(name);
    fresh.getRange(1, 1, values.length, values[0].length).setValues(values);
    for (const e of w.emails) w.touched.add(e);
  },
  editTemplate(w) {
    const active = emu.spreadsheet.getActiveSheet();
    emu.spreadsheet.setActiveSheet(w.sheet());
    const mail = { ...w.mail, subject: w.pick(['Hi {{Name}}', w.mail.subject]) };
    if (w.rand() < 0.5) delete mail.hourlyLimit;
    else mail.hourlyLimit = 50;
    w.templateLimit = mail.hourlyLimit || 0;
    emu.run('saveTemplate', [mail], { kind: 'webapp', user: BOB });
    emu.spreadsheet.setActiveSheet(active);
  },
};

function nameOf(email) {
  return `N ${email.split('@')[0]}`;
}

/**
 * Ann's send of all unsent rows: Yes to the cost, No to sending a mail again or to rows held elsewhere. Now
 * and then Bob edits while her confirmation is open.
 */
function annSends(w) {
  const s = w.sheet();
  if (!s) return;
  emu.spreadsheet.setActiveSheet(s);
  const meanwhile = w.rand() < 0.3 ? w.pick(Object.keys(EDITS)) : null;
  emu.ui.respond((request) => {
    if (request.title === 'Send e-mails' && request.buttons === 'YES_NO') {
      // What she confirms now: the rows the confirmation is about (the plan's, as the sheet is now).
      for (const row of rowsOf(emu, s.getName())) if (row.Email) w.confirmed.add(row.Email);
      w.confirmedLimits.push(w.templateLimit);
      if (meanwhile && w.sheet()) {
        w.log.push(`while Ann confirms: ${meanwhile}`);
        EDITS[meanwhile](w);
      }
      return 'YES';
    }
    if (request.title === 'Unfinished send') return 'YES';
    return request.buttons === 'OK' ? 'OK' : 'NO';
  });
  try {
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    for (let i = 0; emu.properties.document.getProperty(jobKey(emu, 'send')) && i < 20; i++)
      if (emu.run('continueJob', ['send'], { kind: 'webapp' }).finished) break;
  } catch (error) {
    if (!/Exceeded maximum execution time|cut off/.test(String(error && error.message))) throw error;
  }
}

async function fault(w) {
  const kind = w.pick(['lost-response', 'status']);
  const body = { path: SEND_PATH, kind, count: 1 };
  if (kind === 'status') body.status = 502;
  await control(services.sandbox.outreachUrl, 'POST', '/faults', body);
}

/** Bob's edit, or the time limit reached, while Ann's next post is on the wire. */
function duringPost(w) {
  const edit = w.pick([...Object.keys(EDITS).filter((e) => e !== 'editTemplate'), 'cutOff']);
  w.log.push(`during post: ${edit}`);
  emu.onFetch = (entries) => {
    if (!entries.some((e) => e.url.includes(SEND_PATH))) return;
    emu.onFetch = null;
    if (edit === 'cutOff') services.clock.advance(7 * 60_000);
    else EDITS[edit](w);
  };
}

async function step(w) {
  const r = w.rand();
  if (r < 0.3) {
    w.log.push('ann sends');
    annSends(w);
  } else if (r < 0.4) {
    w.log.push('an hour');
    emu.advanceTime(HOUR);
  } else if (r < 0.5) {
    w.log.push('fault');
    await fault(w);
  } else if (r < 0.65) duringPost(w);
  else {
    const edit = w.pick(Object.keys(EDITS));
    w.log.push(edit);
    if (w.sheet()) EDITS[edit](w);
  }
}

async function sentMails(w) {
  const { mails } = await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
  return mails.filter((m) => w.emails.includes(m.recipientEmail));
}

function check(w, mails) {
  const problems = [];
  const counts = new Map();
  for (const m of mails) counts.set(m.recipientEmail, (counts.get(m.recipientEmail) || 0) + 1);
  for (const [email, n] of counts) if (n > 1) problems.push(`${email} mailed ${n} times`);
  for (const email of counts.keys()) if (!w.confirmed.has(email)) problems.push(`${email} never confirmed`);
  // The hourly limit holds as Ann confirmed it (a limit Bob saved counts only once she confirmed it).
  const limit = w.confirmedLimits.includes(0) ? 0 : Math.max(w.limit, ...w.confirmedLimits);
  if (limit) {
    const perHour = new Map();
    for (const m of mails) {
      const hour = Math.floor(Date.parse(m.createdAt) / HOUR);
      perHour.set(hour, (perHour.get(hour) || 0) + 1);
    }
    for (const [hour, n] of perHour)
      if (n > limit) problems.push(`${n} mails in hour ${hour} (limit ${limit})`);
  }
  const s = w.sheet();
  const rows = s ? rowsOf(emu, s.getName()) : [];
  for (const m of mails) {
    if (w.touched.has(m.recipientEmail)) continue;
    if (!rows.some((r) => r.Email === m.recipientEmail && r['Mail ID'] === m.mailId))
      problems.push(`mail ${m.mailId} to ${m.recipientEmail} is not on its row`);
  }
  for (const r of rows)
    for (const [h, v] of Object.entries(r))
      if (/^Note /.test(h) && v !== '' && v !== `n:${r.Email}`)
        problems.push(`${h} of ${r.Email} holds "${v}"`);
  return problems;
}

const seeds = Array.from({ length: RUNS }, (_, i) => FIRST_SEED + i);

describe('Exactly once, whatever another editor does (seeded)', () => {
  test.each(seeds)(
    'sequence %i: nobody mailed twice, nothing beyond the confirmation, every mail on its row',
    async (seed) => {
      const w = new World(seed);
      emu = newAddon(services, {
        users: { owner: 'ann@example.com', active: 'ann@example.com' },
        realTimeoutMs: 15_000,
      });
      const sheet = emu.spreadsheet.insertSheet(LIST);
      const rows = [['Name', 'Email'], ...w.emails.map((e) => [nameOf(e), e])];
      sheet.getRange(1, 1, rows.length, 2).setValues(rows);
      emu.spreadsheet.setActiveSheet(sheet);
      emu.run('saveTemplate', [w.mail], { kind: 'webapp' });
      const steps = 4 + w.int(6);
      for (let i = 0; i < steps; i++) {
        const started = Date.now();
        await step(w);
        if (process.env.FUZZ_VERBOSE) {
          console.log(w.log[w.log.length - 1], Date.now() - started, 'ms');
          for (const e of emu.executions.filter((x) => x.error))
            console.log(e.functionName, String(e.error && e.error.stack).slice(0, 1500));
        }
      }
      emu.onFetch = null;
      await control(services.sandbox.outreachUrl, 'DELETE', '/faults');
      // Ann's last runs: one more send (No to every "again"), then the hours her waiting rows need.
      annSends(w);
      emu.advanceTime(3 * HOUR);
      annSends(w);
      if (process.env.FUZZ_VERBOSE)
        for (const e of emu.executions.filter((x) => x.error))
          console.log(
            'failed',
            e.name,
            e.kind,
            e.endMs - e.startMs,
            String(e.error && e.error.stack).slice(0, 3000),
          );
      const mails = await sentMails(w);
      if (process.env.FUZZ_VERBOSE)
        console.log(
          mails.map((m) => `${m.createdAt} ${m.recipientEmail} ${m.status} task ${m.taskId}`).join('\n'),
        );
      const problems = check(w, mails);
      expect({ seed, steps: w.log, problems }).toEqual({ seed, steps: w.log, problems: [] });
    },
  );
});
