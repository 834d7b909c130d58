'use strict';
// The operations the bench measures, each driven through the built add-on (dist/Code.js) as a user would
// drive it: google.script.run calls from the sidebar, menu actions with their alerts answered by the default
// button (YES / OK), progress-dialog steps (continueJob) until the job is finished, custom functions.
//
// An operation: { id, name, unit, requires: [entry points], sizes: {full, quick}, run(ctx, size) → rows }.
// Each row: { variant, label, pairKey?, ...Measurement.finish() }. Rows with the same pairKey are compared
// (spreadsheet calls per chunk at the largest size against the smallest). Add new operations to OPERATIONS.
const { control, newAddon, DEMO_KEYS, jobKey } = require('../../test/support/harness');
const { registeredPhoneNumber, unregisteredPhoneNumber } = require('../sandbox');
const { Measurement, BENCH_EMULATOR } = require('./measure');
const { searchMinimum, unlockMinimum, phoneMinimum, trackingMinimum, SEARCH_MAX_PAGE } = require('./floors');
const { sendFromSheet, topUpEdm } = require('../../test/support/sent-mail');
const { volumeOperations } = require('./volume-operations');
const { sequenceOperation } = require('./sequence-operation');
const { recordOperation } = require('./record-operation');
const { replyScanOperation } = require('./reply-scan-operation');
const { subjectTestOperation, timingOperation } = require('./timing-operation');
const { campaignOperations } = require('./campaign-operation');
const { addresses, postMails, appendRows } = require('./volume');

/** The search every operation that needs companies uses: matches 599 of the 600 sandbox companies. */
const BROAD_SEARCH = { products: 'a', operator: 'OR', industries: 'e' };
/** Share of duplicate cells in the phone-number columns. */
const DUPLICATE_SHARE = 0.3;
/** Progress-dialog steps after which a job is declared stuck. */
const MAX_STEPS = 200;
/** Balances large enough for every operation (the demo accounts hold 500 points and 1000 credits). */
const TOP_UP = { points: 1_000_000, credits: 1_000_000 };

/** Chunk sizes the add-on writes in, read from the bundle (names survive the build); defaults otherwise. */
function chunkSizes(source, note = () => {}) {
  const read = (name, fallback) => {
    const match = new RegExp(`\\b${name}\\s*=\\s*(\\d+)`).exec(source);
    if (match) return Number(match[1]);
    note(`chunk size ${name} not found in dist/Code.js: ${fallback} assumed`);
    return fallback;
  };
  return {
    unlock: read('UNLOCK_CHUNK', 10),
    contacts: read('CONTACT_CHUNK', 10),
    phone: read('CHUNK_SIZE', 50),
    trackingPages: read('MAILS_PER_UNIT', 1000) / 100,
  };
}

/** Sandbox back to its initial state, balances topped up, and a new add-on (fresh document) with keys saved. */
async function freshAddon(ctx) {
  const { outreachUrl } = ctx.services.sandbox;
  await control(outreachUrl, 'POST', '/reset');
  await control(outreachUrl, 'POST', '/accounts', {
    key: DEMO_KEYS.paid,
    monthlyPoints: 0,
    addonPoints: TOP_UP.points,
  });
  await control(outreachUrl, 'POST', '/accounts', { key: DEMO_KEYS.phone, credits: TOP_UP.credits });
  const emu = newAddon(ctx.services, { allowPhoneFormulas: true, ...BENCH_EMULATOR });
  ctx.track(emu);
  return emu;
}

/**
 * A fresh add-on with EDM topped up, `rows` (headers first) on its first sheet, grown to hold them, that
 * sheet active and its mail (campaign "Bench", subject "Hello {{Name}}", a text `body`) saved.
 */
async function mailingListAddon(ctx, rows, body) {
  const emu = await freshAddon(ctx);
  await control(ctx.services.sandbox.outreachUrl, 'POST', '/accounts', {
    key: DEMO_KEYS.paid,
    monthlyEdm: 0,
    addonEdm: TOP_UP.points,
  });
  const sheet = emu.spreadsheet.getSheets()[0];
  if (sheet.getMaxRows() < rows.length)
    sheet.insertRowsAfter(sheet.getMaxRows(), rows.length - sheet.getMaxRows());
  sheet.getRange(1, 1, rows.length, rows[0].length).setValues(rows);
  emu.spreadsheet.setActiveSheet(sheet);
  const template = { campaign: 'Bench', subject: 'Hello {{Name}}', body, bodyFormat: 'text' };
  emu.run('saveTemplate', [template], { kind: 'webapp' });
  return { emu, sheet };
}

/** Lets every rate window (the sandbox's and the add-on's own budget, which adds a 1 s guard) empty. */
function clearRateWindows(ctx, windowMs) {
  ctx.services.clock.advance(windowMs + 2000);
}

/**
 * Runs a menu action, then the progress dialog's steps while the job is saved (what the dialog does). An
 * execution stopped at its time limit is what the user would see: the dialog goes on while the job is saved
 * (the stop is counted in the row's executions target); any other error is a crash.
 */
function runJob(emu, menuAction, kind) {
  const stopped = [];
  const step = (name, args, kind2) => {
    try {
      return emu.run(name, args, { kind: kind2 });
    } catch (error) {
      if (!error.timedOut) throw error;
      stopped.push(`${name}: ${error.message}`);
      return null;
    }
  };
  step(menuAction, [], 'menu');
  if (menuAction === 'unlockSelectedCompanies') {
    // The unlock dialog's Unlock button, with the boxes as it ticked them.
    const dialog = emu.ui.dialogs.findLast((d) => d.title === 'Unlock companies');
    const question = JSON.parse(/var QUESTION = (.*);\n/.exec(dialog.html)[1]);
    const all = (group) => (question.roles[group].length ? question.roles[group] : question[group]);
    const roles = { departments: all('departments'), seniorities: all('seniorities') };
    step('confirmUnlock', [{ ...question.answer, roles }], 'webapp');
  }
  let progress = null;
  let steps = 0;
  while (emu.properties.document.getProperty(jobKey(emu, kind)) && steps < MAX_STEPS) {
    progress = step('continueJob', [kind], 'webapp');
    steps++;
    if (progress && progress.finished) break;
  }
  if (steps >= MAX_STEPS) throw new Error(`${kind} job not finished after ${MAX_STEPS} progress steps`);
  return { progress, steps, stopped };
}

function sheetRows(emu, name) {
  const sheet = emu.spreadsheet.getSheetByName(name);
  if (!sheet) return [];
  const values = sheet.getDataRange().getValues();
  const header = values[0];
  return values.slice(1).map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
}

function alertsText(emu) {
  return emu.ui.alerts.map((a) => `${a.title}: ${a.message}`.replace(/\s+/g, ' ').slice(0, 200));
}

/** n cells with DUPLICATE_SHARE duplicates: in each block of 10, 7 new numbers and 3 repeats of earlier ones. */
function phoneCells(n, start = 0) {
  const cells = [];
  const distinct = [];
  for (let i = 0; i < n; i++) {
    const repeat = i % 10 >= 10 * (1 - DUPLICATE_SHARE) && distinct.length > 0;
    if (repeat) cells.push(distinct[(i * 7) % distinct.length]);
    else {
      const k = start + distinct.length;
      const phone = k % 2 === 0 ? registeredPhoneNumber(k) : unregisteredPhoneNumber(k);
      distinct.push(phone);
      cells.push(phone);
    }
  }
  return { cells, distinct: distinct.length };
}

const searchPaging = {
  id: 'search',
  name: 'Search by paging',
  unit: 'rows',
  requires: ['searchCompanies'],
  sizes: { full: [500], quick: [100] },
  async run(ctx, rows) {
    const emu = await freshAddon(ctx);
    const m = await new Measurement(ctx, emu).start();
    const perPageCalls = [];
    let last = null;
    for (let from = 0; from < rows; from += SEARCH_MAX_PAGE) {
      const before = emu.stats.spreadsheet.calls;
      last = emu.run('searchCompanies', [{ ...BROAD_SEARCH, size: SEARCH_MAX_PAGE, from }], {
        kind: 'webapp',
      });
      perPageCalls.push(emu.stats.spreadsheet.calls - before);
    }
    const pages = perPageCalls.length;
    const row = await m.finish({
      minimum: { outreach: searchMinimum(rows) },
      minimumFormula: `ceil(${rows} rows / ${SEARCH_MAX_PAGE} per page)`,
      chunks: pages,
      minExecutions: pages, // the sidebar asks for one page per google.script.run call
      details: { perPageCalls, loaded: last && last.loaded, total: last && last.total },
    });
    if (last && last.loaded < rows) ctx.note(`search: only ${last.loaded} rows match (${rows} asked)`);
    // Calls per page must not grow with the rows already on the sheet: the first page (which creates the
    // sheet) is left out; the second is the reference.
    const rest = perPageCalls.slice(1);
    const perChunkSelf = rest.length >= 2 ? { reference: rest[0], worst: Math.max(...rest) } : null;
    return [{ variant: 'paging', label: `${rows} rows`, perChunkSelf, ...row }];
  },
};

/** The filter of the filtered search: about 88 % of the sandbox's companies have at most 1,000 people. */
const FILTERED_SEARCH = { ...BROAD_SEARCH, employees: '1-1000' };

const filteredSearch = {
  id: 'search-filter',
  name: 'Filtered search',
  unit: 'companies',
  requires: ['searchCompanies'],
  sizes: { full: [500], quick: [100] },
  async run(ctx, matches) {
    const emu = await freshAddon(ctx);
    const m = await new Measurement(ctx, emu).start();
    // As the sidebar does: one call, then the next from where it paused, until the limit is reached.
    let last = null;
    let added = 0;
    let calls = 0;
    while (added < matches && calls < MAX_STEPS) {
      const form = { ...FILTERED_SEARCH, limit: matches - added, from: last ? last.loaded : 0 };
      last = emu.run('searchCompanies', [form], { kind: 'webapp' });
      added += last.added;
      calls++;
      if (!last.hasMore) break;
    }
    // The fewest pages: those up to the last match (the order of the results decides where it is).
    const pages = Math.ceil(last.loaded / SEARCH_MAX_PAGE);
    const row = await m.finish({
      minimum: { outreach: pages },
      minimumFormula: `ceil(${last.loaded} results read to find ${matches} of employees ${FILTERED_SEARCH.employees} / ${SEARCH_MAX_PAGE})`,
      chunks: calls,
      minExecutions: Math.ceil(pages / 10), // the add-on reads at most 10 pages a call (progress in between)
      details: { added, loaded: last.loaded, total: last.total, calls },
    });
    if (added < matches) ctx.note(`search-filter: only ${added} companies match (${matches} asked)`);
    return [{ variant: `employees ${FILTERED_SEARCH.employees}`, label: `${matches} matching`, ...row }];
  },
};

const unlockContacts = {
  id: 'unlock',
  name: 'Unlock + contacts',
  unit: 'companies',
  requires: ['searchCompanies', 'unlockSelectedCompanies', 'confirmUnlock', 'continueJob'],
  sizes: { full: [10, 100], quick: [10] },
  async run(ctx, count) {
    const emu = await freshAddon(ctx);
    for (let from = 0; from < count; from += SEARCH_MAX_PAGE) {
      const size = Math.min(SEARCH_MAX_PAGE, count - from);
      emu.run('searchCompanies', [{ ...BROAD_SEARCH, size, from }], { kind: 'webapp' });
    }
    const listed = sheetRows(emu, 'Companies').slice(0, count);
    if (listed.length < count) throw new Error(`only ${listed.length} companies found to unlock`);
    const byId = new Map(ctx.data.companies.map((c) => [String(c.id), c]));
    const contactCounts = listed.map((row) => {
      const company = byId.get(String(row['Search ID']));
      if (!company) throw new Error(`company ${row['Search ID']} is not in the data set`);
      return company.contacts.length;
    });
    const sheet = emu.spreadsheet.getSheetByName('Companies');
    emu.spreadsheet.setActiveSheet(sheet);
    sheet.getRange(`A2:C${count + 1}`).activate();
    clearRateWindows(ctx, 60_000);

    const m = await new Measurement(ctx, emu).start();
    const { progress, steps } = runJob(emu, 'unlockSelectedCompanies', 'unlock');
    const sizes = ctx.chunkSizes;
    const chunks = Math.ceil(count / sizes.unlock) + Math.ceil(count / sizes.contacts);
    const pages = contactCounts.map((n) => Math.max(1, Math.ceil(n / 100)));
    const row = await m.finish({
      minimum: { outreach: unlockMinimum(contactCounts) },
      minimumFormula: `1 balance + ${count} unlocks + ${count} profiles + ${pages.reduce((a, b) => a + b, 0)} profileEmails pages (Σ max(1, ceil(contacts/100)))`,
      chunks,
      details: {
        progressSteps: steps,
        progress,
        unlocked: sheetRows(emu, 'Companies').filter((r) => r['Company hash ID']).length,
        profiles: sheetRows(emu, 'Profiles').length,
        contacts: sheetRows(emu, 'Contacts').length,
        expectedContacts: contactCounts.reduce((a, b) => a + b, 0),
        alerts: alertsText(emu),
      },
    });
    if (row.details.unlocked !== count) ctx.note(`unlock ${count}: ${row.details.unlocked} rows unlocked`);
    return [{ variant: 'run', label: `${count} companies`, pairKey: 'unlock', ...row }];
  },
};

const phoneChecks = {
  id: 'phone',
  name: 'Phone check',
  unit: 'numbers',
  requires: ['checkSelectedPhones', 'continueJob'],
  sizes: { full: [100, 1000], quick: [100] },
  async run(ctx, count) {
    const emu = await freshAddon(ctx);
    const { cells, distinct } = phoneCells(count);
    const sheet = emu.spreadsheet.getSheets()[0];
    if (sheet.getMaxRows() < count + 1)
      sheet.insertRowsAfter(sheet.getMaxRows(), count + 1 - sheet.getMaxRows());
    sheet.getRange(1, 1, count + 1, 1).setValues([['Phone'], ...cells.map((p) => [p])]);
    emu.spreadsheet.setActiveSheet(sheet);
    sheet.getRange(`A2:A${count + 1}`).activate();
    const answered = () =>
      sheet
        .getRange(2, 2, count, 1)
        .getValues()
        .filter((r) => r[0] !== '').length;
    const label = `${count} numbers`;

    const first = await new Measurement(ctx, emu).start();
    const run1 = runJob(emu, 'checkSelectedPhones', 'phone');
    const row1 = await first.finish({
      minimum: { phone: phoneMinimum(distinct) },
      minimumFormula: `1 credits + ${distinct} distinct numbers (${count} cells, ${Math.round(DUPLICATE_SHARE * 100)}% duplicates)`,
      chunks: Math.max(1, Math.ceil(distinct / ctx.chunkSizes.phone)),
      details: { progressSteps: run1.steps, answered: answered(), alerts: alertsText(emu) },
    });

    emu.ui.reset();
    const second = await new Measurement(ctx, emu).start();
    const run2 = runJob(emu, 'checkSelectedPhones', 'phone');
    const row2 = await second.finish({
      minimum: { phone: 0 },
      minimumFormula: 'every number known: nothing to check or to pay, no confirmation',
      chunks: 1,
      details: { progressSteps: run2.steps, answered: answered(), alerts: alertsText(emu) },
    });
    return [
      { variant: 'first', label, pairKey: 'phone', ...row1 },
      { variant: 'cached', label, pairKey: 'phone-cached', ...row2 },
    ];
  },
};

const phoneCheckFunction = {
  id: 'phone-fn',
  name: 'PHONE_CHECK(range)',
  unit: 'cells',
  requires: ['PHONE_CHECK'],
  sizes: { full: [200], quick: [200] },
  async run(ctx, count) {
    const emu = await freshAddon(ctx);
    const { cells, distinct } = phoneCells(count, 500_000);
    const range2D = cells.map((p) => [p]);
    const label = `${count} cells`;
    const rows = [];
    for (const [variant, minimum] of [
      ['first', distinct],
      ['recalc', 0],
    ]) {
      const m = await new Measurement(ctx, emu).start();
      const answer = emu.runCustomFunction('PHONE_CHECK', [range2D]);
      const answers = Array.isArray(answer) ? answer.flat() : [answer];
      const row = await m.finish({
        minimum: { phone: minimum },
        minimumFormula:
          variant === 'first'
            ? `${distinct} distinct numbers (${count} cells, ${Math.round(DUPLICATE_SHARE * 100)}% duplicates)`
            : 'recalculation: every answer from the store',
        details: {
          booleans: answers.filter((a) => typeof a === 'boolean').length,
          texts: [...new Set(answers.filter((a) => typeof a === 'string'))].slice(0, 5),
        },
      });
      rows.push({ variant, label, customFunction: true, ...row });
    }
    return rows;
  },
};

const prospectSearchFunction = {
  id: 'prospect-fn',
  name: 'PROSPECT_SEARCH(...)',
  unit: 'rows',
  requires: ['PROSPECT_SEARCH'],
  sizes: { full: [50], quick: [50] },
  async run(ctx, size) {
    const emu = await freshAddon(ctx);
    const args = ['a', 'e', '', '', '', false, size, 0];
    const rows = [];
    for (const [variant, minimum] of [
      ['first', 1],
      ['recalc', 0],
    ]) {
      const m = await new Measurement(ctx, emu).start();
      const answer = emu.runCustomFunction('PROSPECT_SEARCH', args);
      const row = await m.finish({
        minimum: { outreach: minimum },
        minimumFormula: variant === 'first' ? '1 search page' : 'recalculation: answered from the cache',
        details: { rowsReturned: Array.isArray(answer) ? answer.length - 1 : null },
      });
      rows.push({ variant, label: `${size} rows`, customFunction: true, ...row });
    }
    return rows;
  },
};

const mailMerge = {
  id: 'send',
  name: 'Send e-mails',
  unit: 'rows',
  requires: ['saveTemplate', 'sendAllUnsentRows', 'continueJob'],
  sizes: { full: [100, 10000], quick: [100] },
  async run(ctx, count) {
    const rows = [['Name', 'E-mail', 'Company']];
    for (let i = 1; i <= count; i++) rows.push([`Person ${i}`, `person${i}@example.com`, `Company ${i % 9}`]);
    const { emu, sheet } = await mailingListAddon(ctx, rows, 'Dear {{Name}} of {{Company}}');
    const chunks = Math.ceil(count / 100);
    const m = await new Measurement(ctx, emu).start();
    const run = runJob(emu, 'sendAllUnsentRows', 'send');
    const accepted = sheetRows(emu, sheet.getName()).filter((r) => r['Mail status'] === 'Accepted').length;
    const row = await m.finish({
      minimum: { outreach: 1 + chunks },
      minimumFormula: `1 balance + ceil(${count} rows / 100 per send)`,
      chunks,
      details: { progressSteps: run.steps, accepted, alerts: alertsText(emu) },
    });
    if (accepted !== count) ctx.note(`send ${count}: ${accepted} rows accepted`);
    return [{ variant: 'run', label: `${count} rows`, pairKey: 'send', ...row }];
  },
};

const trackingRefresh = {
  id: 'tracking',
  name: 'Tracking refresh',
  unit: 'mails',
  requires: ['refreshTracking', 'continueJob'],
  sizes: { full: [100, 1000, 10000], quick: [100] },
  async run(ctx, count) {
    const emu = await freshAddon(ctx);
    // Sent through the add-on (100 mails per task), one in ten to a bouncing address; from 10,000 mails on,
    // posted at the sandbox and written on the list as the sender writes them (volume.js), to save real time.
    const emails = addresses(0, count);
    let taskIds;
    if (count <= 1000) {
      await topUpEdm(ctx.services, count);
      taskIds = sendFromSheet(emu, emails).taskIds;
    } else {
      const rows = await postMails(ctx.services, emu, emails);
      appendRows(emu, 'Outreach', rows);
      taskIds = [...new Set(rows.map((r) => r[3]))];
    }
    clearRateWindows(ctx, 60_000); // every mail final, every rate window empty

    const m = await new Measurement(ctx, emu).start();
    const { progress, steps } = runJob(emu, 'refreshTracking', 'tracking');
    const pages = Math.ceil(count / 100);
    const row = await m.finish({
      minimum: { outreach: trackingMinimum(taskIds.length, count) },
      minimumFormula: `ceil(${count} mails / 100) mail requests + one task request per 1,000 mails (${taskIds.length} tasks)`,
      chunks: Math.ceil(pages / ctx.chunkSizes.trackingPages),
      details: {
        progressSteps: steps,
        progress,
        trackingRows: sheetRows(emu, 'Tracking').length,
        statuses: [...new Set(sheetRows(emu, 'Outreach').map((r) => r['Mail status']))],
        alerts: alertsText(emu),
      },
    });
    if (row.details.trackingRows !== count) ctx.note(`tracking ${count}: ${row.details.trackingRows} rows`);
    return [{ variant: 'first', label: `${count} mails`, pairKey: 'tracking', ...row }];
  },
};

const OPERATIONS = [
  searchPaging,
  filteredSearch,
  unlockContacts,
  phoneChecks,
  phoneCheckFunction,
  prospectSearchFunction,
  mailMerge,
  trackingRefresh,
  ...volumeOperations({ freshAddon, mailingListAddon, runJob, sheetRows, alertsText }),
  sequenceOperation({ mailingListAddon, runJob, sheetRows, alertsText }),
  replyScanOperation({ runJob, sheetRows }),
  timingOperation({ mailingListAddon, runJob, sheetRows, alertsText }),
  subjectTestOperation({ mailingListAddon, runJob, sheetRows, alertsText }),
  ...campaignOperations({ mailingListAddon, runJob, sheetRows }),
  // Last: its 90 days on the shared clock would move the dates the rows after it see (a run gives the same
  // figures as a run of some of its rows).
  recordOperation({ mailingListAddon, runJob, sheetRows, alertsText }),
];

module.exports = { OPERATIONS, chunkSizes, phoneCells, freshAddon, runJob, BROAD_SEARCH };
