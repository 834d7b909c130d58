'use strict';
// Behaviour does not depend on the words of a message: the send, earlier failures, the compose dialog, tracking,
// auto-refresh, the unlock and the phone check are run twice through the built bundle, once as built and once
// with every table of user-facing words changed (a mark before each character of each string of every
// `const *_TEXTS / *_TEXT / *_WORDS = …` of the bundle, found by name), and must do exactly the same: the same
// requests, the same sheets, the same dialogs once the mark is taken out of what they say. Code that compared a
// message with a word of its own (`startsWith('the subject')`, a count by `includes('No matching company')`)
// would act differently. Texts written by earlier versions ("Failed: …" typed into a row here) are still read as
// they always were.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { useServices, control, newAddon } = require('../support/harness');
const { turnAutoRefresh } = require('../support/auto-refresh');
const { unlock, editCompanyIndex } = require('../support/unlock');
const { registeredPhoneNumber, unregisteredPhoneNumber } = require('../../dev/sandbox/rules');

const ROOT = path.join(__dirname, '..', '..');
const SWAPPED = path.join(ROOT, 'test-output', 'texts-swapped');
/** A table of user-facing words: every string literal of its value gets the mark (keys excepted). */
const TABLE = /\nconst ([A-Z][A-Z0-9_]*_(?:TEXTS|TEXT|WORDS)(?:\$\d+)?) = /g;
/** Tables that must be among them (a table renamed out of the pattern would silently escape the test). */
const KNOWN_TABLES = [
  'MAIL_STATUS_TEXTS',
  'SEND_TEXTS',
  'TEMPLATE_TEXTS',
  'UNLOCK_TEXTS',
  'PHONE_TEXTS',
  'AUTO_REFRESH_TEXTS',
  'ERROR_TEXTS',
  'TASK_STATUS_TEXTS',
  'OPENED_TEXTS',
  'STOP_TEXTS',
  'WAIT_TEXTS',
];
const MARK = '¤';
const ESCAPE = /^\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/;
let tables = [];

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

/** Whether the string literal starting at `at` is an object key: after `{` or `,`, and followed by `:`. */
function isKey(code, at, out) {
  const before = out.trimEnd().at(-1);
  if (before !== '{' && before !== ',') return false;
  const quote = code[at];
  let end = at + 1;
  while (code[end] !== quote) end += code[end] === '\\' ? 2 : 1;
  return /^\s*:/.test(code.slice(end + 1, end + 20));
}

/**
 * Puts MARK before every character of every string and template literal of `const NAME = …;` (the
 * expressions inside a template are left alone, object keys too): "Queued" becomes "¤Q¤u¤e¤u¤e¤d", so no
 * word of the original is found in the text any more (startsWith, includes, replace all miss), while taking
 * the marks out gives the original back.
 */
function markTexts(code, name) {
  const start = code.indexOf(`\nconst ${name} = `);
  if (start < 0) throw new Error(`${name} is not in the bundle`);
  let i = start + `\nconst ${name} = `.length;
  let out = code.slice(0, i);
  let depth = 0;
  const templates = []; // the brace depth at which each open template's ${ … } started
  /** Copies literal text up to (not including) a character `stop` tells, marking each character. */
  const literal = (stop) => {
    for (; !stop(i); i++) {
      // An escape (the build writes \u2026 for …) is one character of the text.
      const escape = code[i] === '\\' ? ESCAPE.exec(code.slice(i, i + 12))[0] : code[i];
      out += MARK + escape;
      i += escape.length - 1;
    }
  };
  for (; i < code.length; i++) {
    const ch = code[i];
    if ((ch === "'" || ch === '"') && isKey(code, i, out)) {
      const end = code.indexOf(ch, i + 1);
      out += code.slice(i, end + 1);
      i = end;
    } else if (ch === "'" || ch === '"') {
      out += ch;
      i++;
      literal((k) => code[k] === ch);
      out += ch;
    } else if (ch === '`' || (ch === '}' && templates.length && templates.at(-1) === depth)) {
      out += ch;
      if (ch === '}') templates.pop();
      i++;
      literal((k) => code[k] === '`' || (code[k] === '$' && code[k + 1] === '{'));
      if (code[i] === '`') out += '`';
      else {
        out += '${';
        i++;
        templates.push(depth);
      }
    } else {
      out += ch;
      if (ch === '{' || ch === '(' || ch === '[') depth++;
      else if (ch === '}' || ch === ')' || ch === ']') depth--;
      else if (ch === ';' && depth === 0) break;
    }
  }
  return out + code.slice(i + 1);
}

beforeAll(() => {
  const local = path.join(ROOT, 'dist-local');
  fs.mkdirSync(SWAPPED, { recursive: true });
  for (const file of fs.readdirSync(local)) fs.copyFileSync(path.join(local, file), path.join(SWAPPED, file));
  let code = fs.readFileSync(path.join(local, 'Code.js'), 'utf8');
  tables = [...code.matchAll(TABLE)].map((m) => m[1]);
  for (const name of tables) code = markTexts(code, name);
  new vm.Script(code); // still JavaScript
  fs.writeFileSync(path.join(SWAPPED, 'Code.js'), code);
});

/** What a run leaves: every sheet, every dialog and answer, the requests; times and the mark taken out. */
function outcome(record) {
  const text = JSON.stringify({
    sheets: emu.snapshot().spreadsheet.sheets,
    alerts: emu.ui.alerts.map((a) => [a.title, a.message]),
    toasts: emu.ui.toasts.map((t) => [t.title, t.message]),
    record,
    requests: emu.fetchLog.map((r) => `${r.method || ''} ${new URL(r.url).pathname}`),
  });
  return JSON.parse(
    text
      .replaceAll(MARK, '')
      .replace(/\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?Z?)?/g, '<date>')
      .replace(/\b1[67]\d{11}\b/g, '0')
      .replace(/chart-\d+-\d+/g, 'chart'),
  );
}

/** Runs `scenario` on the bundle as built and on the one with its texts changed: both must do the same. */
async function sameWithOtherWords(scenario) {
  const runs = [];
  for (const dist of [undefined, SWAPPED]) {
    await control(services.sandbox.outreachUrl, 'POST', '/reset');
    emu = newAddon(services, { dist });
    const record = [];
    await scenario(record);
    runs.push(outcome(record));
    emu.dispose();
    emu = null;
  }
  const [asBuilt, swapped] = runs;
  expect(JSON.stringify(swapped)).not.toBe(''); // both ran
  expect(swapped).toEqual(asBuilt);
  return asBuilt;
}

function list(name, rows) {
  const sheet = emu.spreadsheet.getSheetByName(name) || emu.spreadsheet.insertSheet(name);
  sheet.getRange(1, 1, rows.length, rows[0].length).setValues(rows);
  emu.spreadsheet.setActiveSheet(sheet);
  emu.run(
    'saveTemplate',
    [{ campaign: 'Spring', subject: 'Hello {{Name}}', body: 'Dear {{Name}}', bodyFormat: 'text' }],
    { kind: 'webapp' },
  );
  return sheet;
}

function column(sheet, header) {
  return sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0].indexOf(header) + 1;
}

test('the swapped bundle really says other words, in every table', () => {
  const code = fs.readFileSync(path.join(SWAPPED, 'Code.js'), 'utf8');
  const marked = (text) => [...text].map((c) => MARK + c).join('');
  expect(tables).toEqual(expect.arrayContaining(KNOWN_TABLES));
  expect(code).toContain(`queued: '${marked('Queued')}'`);
  expect(code).toContain(`(why) => \`${marked('an earlier mail to this address failed (')}\${why}`);
  expect(code).toContain(`'not-found': '${marked('No matching company: nothing charged.')}'`);
  expect(code).toContain(`'not-registered': '${marked('not registered')}'`);
});

test('a send with every kind of skipped row, an earlier failure asked about, and a test mail', async () => {
  const result = await sameWithOtherWords((record) => {
    const dnc = emu.spreadsheet.insertSheet('Do not contact');
    dnc.getRange(1, 1, 2, 2).setValues([
      ['E-mail', 'Reason'],
      ['listed@example.com', 'asked'],
    ]);
    const first = list('First', [
      ['Name', 'Email'],
      ['Ann', 'ann@example.com'],
      ['Bob', 'bob@example.com'],
      ['No address', ''],
      ['Bad', 'not an address'],
      ['Twice', 'ANN@example.com'],
      ['Listed', 'listed@example.com'],
      ['Long', 'long@example.com'],
    ]);
    first.getRange(8, 1).setValue('x'.repeat(300)); // its subject is too long once filled in
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    // Bob's mail bounced (words of the first version, typed as an earlier version wrote them).
    first.getRange(3, column(first, 'Mail status')).setValue('Failed: Mailbox unavailable (550)');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    // Another list mails Bob again: "all unsent" leaves him out; selected, the user is asked (No, then Yes).
    const second = list('Second', [
      ['Name', 'Email'],
      ['Bob', 'bob@example.com'],
      ['Cid', 'cid@example.com'],
    ]);
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const third = list('Third', [
      ['Name', 'Email'],
      ['Bob', 'bob@example.com'],
      ['Dan', 'dan@example.com'],
    ]);
    third.getRange('A2:B3').activate();
    emu.ui.queue('NO', 'YES');
    emu.run('sendSelectedRows', [], { kind: 'menu' });
    second.getRange('A2:B2').activate();
    emu.ui.queue('YES', 'YES');
    emu.run('sendSelectedRows', [], { kind: 'menu' });
    // The compose dialog's test mail of a row without an address goes to the address typed.
    emu.spreadsheet.setActiveSheet(first);
    record.push(emu.run('sendTestMail', [4, 'me@example.com'], { kind: 'webapp' }));
    try {
      emu.run('sendTestMail', [8, 'me@example.com'], { kind: 'webapp' });
    } catch (error) {
      record.push(String(error.message).replaceAll(MARK, ''));
    }
  });
  const statuses = (name) => {
    const sheet = result.sheets.find((s) => s.name === name);
    const values = sheet.values;
    const at = values[0].indexOf('Mail status');
    return values.slice(1).map((row) => row[at]);
  };
  // The same run, in the words as built: what each row says.
  expect(statuses('First')).toEqual([
    'Accepted',
    'Failed: Mailbox unavailable (550)',
    'Skipped: no e-mail address',
    'Skipped: "not an address" is not a valid e-mail address',
    'Skipped: already sent to this address in row 2',
    'Skipped: on the do-not-contact list (asked)',
    expect.stringMatching(/^Skipped: the subject has \d+ characters/),
  ]);
  expect(statuses('Third')[0]).toMatch(/^Skipped: an earlier mail to this address failed \(Mailbox/);
  expect(statuses('Second')).toEqual(['Accepted', 'Accepted']);
  expect(result.alerts.filter(([title]) => title === 'Addresses that failed before')).toHaveLength(2);
  expect(result.record[0]).toMatch(/me@example\.com/);
  // The row's problem is listed under its preview, right above the test's answer: not said twice.
  expect(result.record[1]).toMatch(/^The test was not sent: the problem of row 8, listed under its preview/);
});

test('tracking moves the rows on and leaves final mails unread', async () => {
  const result = await sameWithOtherWords(() => {
    list('Outreach', [
      ['Name', 'Email'],
      ['Jane', 'jane@example.com'],
      ['Bob', 'bounce.bob@example.com'],
    ]);
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    emu.run('refreshTracking', [], { kind: 'menu' });
    emu.advanceTime(3 * 3600_000);
    emu.run('refreshTracking', [], { kind: 'menu' });
    emu.run('refreshTracking', [], { kind: 'menu' });
  });
  const tracking = result.sheets.find((s) => s.name === 'Tracking');
  expect(JSON.stringify(tracking)).toMatch(/Delivered|Sent/);
  expect(JSON.stringify(tracking)).toMatch(/Failed/);
  // The third refresh read no mail again: every one was final.
  const mailReads = result.requests.filter((r) => r.endsWith('/api/v1/emails/mails')).length;
  expect(mailReads).toBe(2);
});

test("the compose dialog's preview: a row without an address, and a placeholder naming no column", async () => {
  const preview = (row) => emu.run('previewMail', [row], { kind: 'webapp' });
  const result = await sameWithOtherWords((record) => {
    list('Outreach', [
      ['Name', 'Email'],
      ['Ann', 'ann@example.com'],
      ['No address', ''],
    ]);
    record.push(preview(2), preview(3));
    const mail = { campaign: 'Spring', subject: 'Hi {{Nmae}}', body: 'Dear {{Name}}', bodyFormat: 'text' };
    emu.run('saveTemplate', [mail], { kind: 'webapp' });
    record.push(preview(2));
  });
  const [ann, noAddress, unknown] = result.record;
  expect(ann.problems).toEqual([]);
  expect(noAddress.problems).toEqual(['Row 3: no e-mail address.']);
  // The placeholder is said once, under the dialog's buttons (the compose state's problems): the preview
  // only says why it is blank.
  expect(unknown.body).toMatch(/^This mail cannot be shown: a \{\{placeholder\}\} in it names no column/);
  expect(unknown.problems.filter((p) => p.includes('Nmae'))).toEqual([]);
});

test('an unlock counts a company not found and an outcome unknown by their codes', async () => {
  const result = await sameWithOtherWords(async (record) => {
    emu.run('searchCompanies', [{ products: 'a', operator: 'OR', industries: 'e', size: 4 }], {
      kind: 'webapp',
    });
    const companies = emu.spreadsheet.getSheetByName('Companies');
    emu.spreadsheet.setActiveSheet(companies);
    companies.getRange('A2:C5').activate();
    // The service no longer knows the third company; the answer to the first unlock is lost.
    const header = companies.getRange(1, 1, 1, companies.getLastColumn()).getValues()[0];
    const gone = companies.getRange(4, header.indexOf('Search ID') + 1).getValue();
    editCompanyIndex(emu, (id, [domain, ...rest]) => [id === gone ? `gone.${domain}` : domain, ...rest]);
    await control(services.sandbox.outreachUrl, 'POST', '/faults', {
      path: '/api/v1/companies/unlock',
      count: 1,
      kind: 'lost-response',
    });
    record.push(unlock(emu).answer);
  });
  const companies = result.sheets.find((s) => s.name === 'Companies');
  const at = companies.values[0].indexOf('Unlock status');
  const statuses = companies.values.slice(1, 5).map((row) => row[at]);
  expect(statuses.filter((s) => s === 'No matching company: nothing charged.')).toHaveLength(1);
  expect(statuses.filter((s) => /^Outcome unknown/.test(s))).toHaveLength(1);
  const said = JSON.stringify([result.toasts, result.alerts, result.record]);
  expect(said).toMatch(/1 not found \(not charged\)/);
  expect(said).toMatch(/1 with unknown outcome/);
});

test('a phone check: invalid numbers, answers, and a second run that reads its own cells', async () => {
  const result = await sameWithOtherWords((record) => {
    const sheet = emu.spreadsheet.getSheets()[0];
    const rows = [
      ['Phone'],
      ['12'],
      ['+1 555 abc'],
      [registeredPhoneNumber(1)],
      [unregisteredPhoneNumber(2)],
    ];
    sheet.getRange('A1:A5').setValues(rows);
    emu.spreadsheet.setActiveSheet(sheet);
    sheet.getRange('A2:A5').activate();
    emu.ui.respond((request) => (request.buttons === 'YES_NO' ? 'YES' : undefined));
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    record.push(emu.runCustomFunction('PHONE_CHECK', [[['12'], [registeredPhoneNumber(1)], ['']]]));
  });
  const sheet = result.sheets[0];
  expect(sheet.values.slice(0, 5).map((row) => row[1])).toEqual([
    'Phone check',
    'invalid number: too short, at least 7 digits',
    'invalid number: contains letters',
    'registered',
    'not registered',
  ]);
  expect(result.record[0]).toEqual([['invalid number: too short, at least 7 digits'], [true], ['']]);
  // One request per number; the second run and the formula found every number answered.
  expect(result.requests.filter((r) => r.endsWith('/api/wa/check'))).toHaveLength(2);
});

test('auto-refresh that turned itself off says why once', async () => {
  const result = await sameWithOtherWords((record) => {
    turnAutoRefresh(emu, true);
    record.push(emu.advanceTime(3600_000).map((run) => run.status));
    emu.ui.queue('NO');
    emu.run('toggleAutoRefresh', [], { kind: 'menu' });
  });
  expect(result.record[0]).toEqual(['completed']);
  const asked = result.alerts.findLast(([title]) => title === 'Auto-refresh tracking'); // after the one that turned it on
  expect(asked[1]).toMatch(/turned itself off: this document has not sent any e-mail\./);
  expect(asked[1]).not.toMatch(/It was turned off/);
});
