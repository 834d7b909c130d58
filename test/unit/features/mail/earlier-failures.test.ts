// src/features/mail/earlier-failures.ts: an address whose latest known mail from this document failed is held
// back by a later send; one mailed successfully after its failure is not. The sheets are the record.
import { earlierFailures, failureText, failureWhy } from '../../../../src/features/mail/earlier-failures';
import type { SheetView } from '../../../../src/sheets/mail-view';
import type { MailState } from '../../../../src/sheets/mail-state';
import { useUtilities } from '../../gas-utilities';
import { listRow } from '../../list-rows';

useUtilities();

const day = (d: number) => new Date(Date.UTC(2026, 0, d, 12));
const failed = (reason = ''): MailState => ({ kind: 'failed', reason });
const spreadsheet = {} as GoogleAppsScript.Spreadsheet.Spreadsheet;
const tracking = (rows: SheetView['rows']): SheetView => ({
  sheetId: 9,
  name: 'Tracking',
  tracking: true,
  rows,
});
const recordRow = (key: string, state: MailState, sentAt: Date | null, failureReason?: string) => ({
  rowNumber: 2,
  key,
  state,
  mailId: 1,
  taskId: 1,
  sentAt,
  failureReason,
});

describe('earlierFailures', () => {
  test("the latest known outcome per address decides: a failure, with the Tracking sheet's reason", () => {
    const current = {
      sheetId: 1,
      rows: [listRow(2, { email: 'ann@acme.com', state: failed('bounced'), sentAt: day(5) })],
    };
    const others = [tracking([recordRow('bob@acme.com', failed(), day(3), 'Mailbox unavailable')])];
    expect(earlierFailures(spreadsheet, current, others)).toEqual(
      new Map([
        ['ann@acme.com', { reason: 'bounced', at: day(5).getTime() }],
        ['bob@acme.com', { reason: 'Mailbox unavailable', at: day(3).getTime() }],
      ]),
    );
  });

  test('an address mailed successfully after its failure is not held back; one that failed after is', () => {
    const current = {
      sheetId: 1,
      rows: [
        listRow(2, { email: 'ann@acme.com', state: failed('x'), sentAt: day(3) }),
        listRow(3, { email: 'ann@acme.com', state: { kind: 'delivered' }, sentAt: day(4) }),
        listRow(4, { email: 'bob@acme.com', state: { kind: 'sent' }, sentAt: day(3) }),
        listRow(5, { email: 'bob@acme.com', state: failed(''), sentAt: day(4) }),
      ],
    };
    expect([...earlierFailures(spreadsheet, current, []).entries()]).toEqual([
      ['bob@acme.com', { reason: 'failed', at: day(4).getTime() }],
    ]);
  });

  test('at the same time, a failure wins; rows not sent yet say nothing', () => {
    const current = {
      sheetId: 1,
      rows: [
        listRow(2, { email: 'ann@acme.com', state: { kind: 'sent' }, sentAt: day(3) }),
        listRow(3, { email: 'ann@acme.com', state: failed('x'), sentAt: day(3) }),
        listRow(4, { email: 'cat@acme.com', state: { kind: 'queued' } }),
      ],
    };
    expect([...earlierFailures(spreadsheet, current, []).keys()]).toEqual(['ann@acme.com']);
  });
});

describe('failureWhy and failureText', () => {
  test("the reason and the day of the failed mail, in the spreadsheet's zone", () => {
    const failure = { reason: 'Mailbox unavailable', at: Date.UTC(2026, 0, 5, 23, 30) };
    expect(failureWhy(failure, 'Etc/UTC')).toBe('Mailbox unavailable, 2026-01-05');
    expect(failureWhy(failure, 'Asia/Tokyo')).toBe('Mailbox unavailable, 2026-01-06');
    expect(failureWhy({ reason: 'bounced', at: 0 }, 'Etc/UTC')).toBe('bounced');
    expect(failureText(failure, 'Etc/UTC')).toBe(
      'an earlier mail to this address failed (Mailbox unavailable, 2026-01-05)',
    );
  });
});
