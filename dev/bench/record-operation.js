'use strict';
// The ledger at its volume: 10 campaigns of n / 10 new people each, one every 9 days (n first mails
// over 90 days), each sent through the add-on from a list of its own. What the record keeps of them (who got
// each campaign's first mail, the posted mails' ids) stays in the payer's user properties beside a running send;
// the figure is the store's size after each campaign, and whether each send was confirmed whole. The last send
// is measured. Minimum: 1 balance + ceil(n / 10 / 100) sends. See dev/bench/README.md.
const { Measurement } = require('./measure');

const DAY = 24 * 3600_000;
const CAMPAIGNS = 10;

function recordOperation({ mailingListAddon, runJob, sheetRows, alertsText }) {
  return {
    id: 'record',
    name: 'Ledger',
    unit: 'mails',
    requires: ['saveTemplate', 'sendAllUnsentRows', 'continueJob'],
    sizes: { full: [100000], quick: [1000] },
    async run(ctx, count) {
      const per = Math.ceil(count / CAMPAIGNS);
      const rowsOf = (k) => [
        ['Name', 'E-mail'],
        ...Array.from({ length: per }, (_, i) => [`Person ${i + 1}`, `c${k}.p${i + 1}@example.com`]),
      ];
      const { emu, sheet } = await mailingListAddon(ctx, rowsOf(1), 'Dear {{Name}}');
      const sheets = [sheet];
      const chars = [];
      const accepted = [];
      let m = null;
      for (let k = 1; k <= CAMPAIGNS; k++) {
        if (k > 1) {
          emu.advanceTime(9 * DAY, { fireTriggers: false });
          const next = emu.spreadsheet.insertSheet(`List ${k}`);
          if (next.getMaxRows() < per + 1)
            next.insertRowsAfter(next.getMaxRows(), per + 1 - next.getMaxRows());
          next.getRange(1, 1, per + 1, 2).setValues(rowsOf(k));
          emu.spreadsheet.setActiveSheet(next);
          sheets.push(next);
        }
        const template = { campaign: `Campaign ${k}`, subject: 'Hello {{Name}}', body: 'Dear {{Name}}' };
        emu.run('saveTemplate', [{ ...template, bodyFormat: 'text' }], { kind: 'webapp' });
        if (k === CAMPAIGNS) m = await new Measurement(ctx, emu).start();
        runJob(emu, 'sendAllUnsentRows', 'send');
        const name = sheets[k - 1].getName();
        accepted.push(sheetRows(emu, name).filter((r) => r['Mail status'] === 'Accepted').length);
        chars.push(userStoreChars(emu));
      }
      const chunks = Math.ceil(per / 100);
      const row = await m.finish({
        minimum: { outreach: 1 + chunks },
        minimumFormula: `1 balance + ceil(${per} rows / 100 per send)`,
        chunks,
        details: {
          // The payer's user properties after each campaign's send (keys and values, as Apps Script counts them).
          userPropertiesChars: chars,
          acceptedPerCampaign: accepted,
          alerts: alertsText(emu),
        },
      });
      const short = accepted.filter((n) => n !== per).length;
      if (short) ctx.note(`record ${count}: ${short} campaigns not sent whole (${accepted.join(', ')})`);
      return [{ variant: 'last send', label: `${count} mails`, ...row }];
    },
  };
}

/** Characters in the active user's properties (keys and values), as Apps Script counts its 500 KB store. */
function userStoreChars(emu) {
  const all = emu.properties.user.toJSON();
  return Object.entries(all).reduce((n, [k, v]) => n + k.length + String(v).length, 0);
}

module.exports = { recordOperation, userStoreChars };
