'use strict';
// Rows hidden by a filter, through the built bundle: a "filter by values" or an empty / not-empty condition
// is read in blocks (its criteria once per column, the displayed values once), never one service call per
// row; any other condition is asked of Sheets row by row. Either way no hidden row is sent.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');
const { listWithMail } = require('../support/sent-mail');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const LIST = 'Outreach';
const ROWS = 40;

/** A list of ROWS recipients with a Region (North on odd rows, South on even) and a Score (the row index). */
function makeList() {
  const rows = [['Name', 'Email', 'Region', 'Score']];
  for (let i = 1; i <= ROWS; i++) {
    rows.push([`Person ${i}`, `person${i}@example.com`, i % 2 ? 'North' : i % 4 ? 'South' : '', i]);
  }
  const template = {
    campaign: 'Filtered',
    subject: 'Hello {{Name}}',
    body: 'Hi {{Name}}',
    bodyFormat: 'text',
  };
  return listWithMail(emu, LIST, rows, template);
}

function filterWith(sheet, column, build) {
  const criteria = build(emu.services.SpreadsheetApp.newFilterCriteria()).build();
  sheet
    .getRange(1, 1, ROWS + 1, 4)
    .createFilter()
    .setColumnFilterCriteria(column, criteria);
}

async function sentTo() {
  const { mails } = await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
  return mails.map((m) => Number(m.recipientEmail.match(/\d+/)[0])).sort((a, b) => a - b);
}

const range = (keep) => Array.from({ length: ROWS }, (_, i) => i + 1).filter(keep);

describe('rows hidden by a filter', () => {
  test('hidden values: the hidden rows are skipped, with no per-row call whatever the size', async () => {
    emu = newAddon(services);
    filterWith(makeList(), 3, (c) => c.setHiddenValues(['South']));
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(await sentTo()).toEqual(range((i) => i % 2 === 1 || i % 4 === 0));
    expect(emu.callCount('Sheet.isRowHiddenByFilter')).toBe(0);
    // The filter's criteria once per column of its range, the filtered column's displayed values once.
    expect(emu.callCount('Filter.getColumnFilterCriteria')).toBe(4);
    expect(emu.ui.alerts[0].message).toMatch(/10 hidden by a filter: skipped/);
  });

  test('visible values and "is empty" conditions are read in blocks too', async () => {
    emu = newAddon(services);
    filterWith(makeList(), 3, (c) => c.setVisibleValues(['North']));
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(await sentTo()).toEqual(range((i) => i % 2 === 1));
    expect(emu.callCount('Sheet.isRowHiddenByFilter')).toBe(0);

    emu.dispose();
    await control(services.sandbox.outreachUrl, 'POST', '/reset');
    emu = newAddon(services);
    filterWith(makeList(), 3, (c) => c.whenCellEmpty());
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(await sentTo()).toEqual(range((i) => i % 4 === 0));
    expect(emu.callCount('Sheet.isRowHiddenByFilter')).toBe(0);
  });

  test('a number condition is left to Sheets: asked row by row, and still no hidden row is sent', async () => {
    emu = newAddon(services);
    filterWith(makeList(), 4, (c) => c.whenNumberGreaterThan(30));
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(await sentTo()).toEqual(range((i) => i > 30));
    expect(emu.callCount('Sheet.isRowHiddenByFilter')).toBe(ROWS);
  });
});
