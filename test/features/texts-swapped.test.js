'use strict';
// Behaviour does not depend on the words of a message (issue 26, item 2): the send, earlier failures, the
// compose dialog's test mail and tracking are run twice through the built bundle, once as built and once
// with every text of the texts modules changed (a mark before each character of each string of
// MAIL_STATUS_TEXTS, SEND_TEXTS and TEMPLATE_TEXTS in the second bundle), and must do exactly the same: the same requests, the same sheets, the same
// dialogs once the mark is taken out of what they say. Code that compared a message with a word of its own
// (`startsWith('the subject')`, a status stripped of "Skipped: an earlier mail…") would act differently.
// Texts written by earlier versions ("Failed: …" typed into a row here) are still read as they always were.
const fs = require('node:fs');
const path = require('node:path');
const { useServices, control, newAddon } = require('../support/harness');

const ROOT = path.join(__dirname, '..', '..');
const SWAPPED = path.join(ROOT, 'test-output', 'texts-swapped');
/** The texts modules: every string literal of these objects gets the mark. */
const TEXT_OBJECTS = ['MAIL_STATUS_TEXTS', 'SEND_TEXTS', 'TEMPLATE_TEXTS'];
const MARK = '¤';

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

/**
 * Puts MARK before every character of every string and template literal of `const NAME = { … }` (the
 * expressions inside a template are left alone): "Queued" becomes "¤Q¤u¤e¤u¤e¤d", so no word of the
 * original is found in the text any more (startsWith, includes, replace all miss), while taking the marks
 * out gives the original back.
 */
function markTexts(code, name) {
  const start = code.indexOf(`const ${name} = {`);
  if (start < 0) throw new Error(`${name} is not in the bundle`);
  let out = code.slice(0, start);
  let i = start;
  let depth = 0;
  const templates = []; // the brace depth at which each open template's ${ … } started
  /** Copies literal text up to (not including) a character `stop` tells, marking each character. */
  const literal = (stop) => {
    for (; !stop(i); i++) out += MARK + (code[i] === '\\' ? code[i] + code[++i] : code[i]);
  };
  for (; i < code.length; i++) {
    const ch = code[i];
    if (ch === "'" || ch === '"') {
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
      if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) break;
    }
  }
  return out + code.slice(i + 1);
}

beforeAll(() => {
  const local = path.join(ROOT, 'dist-local');
  fs.mkdirSync(SWAPPED, { recursive: true });
  for (const file of fs.readdirSync(local)) fs.copyFileSync(path.join(local, file), path.join(SWAPPED, file));
  let code = fs.readFileSync(path.join(local, 'Code.js'), 'utf8');
  for (const name of TEXT_OBJECTS) code = markTexts(code, name);
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

test('the swapped bundle really says other words', () => {
  const code = fs.readFileSync(path.join(SWAPPED, 'Code.js'), 'utf8');
  const marked = (text) => [...text].map((c) => MARK + c).join('');
  expect(code).toContain(`queued: '${marked('Queued')}'`);
  expect(code).toContain(`{ return \`${marked('an earlier mail to this address failed (')}\${why}`);
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
