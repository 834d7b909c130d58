// src/features/mail/send-plan.ts: before any request, every row of a send is checked; a row that cannot go
// gets its reason (nothing charged), a row held by an empty placeholder says which, rows already sent stay,
// and the confirmation counts each reason.
import {
  includeFailedBefore,
  isSent,
  ownFailure,
  type PlanContext,
  planSend,
  skipFailedBefore,
  skippedLines,
} from '../../../../src/features/mail/send-plan';
import type { MailTemplate } from '../../../../src/features/outbox/mail-template';
import { stateText } from '../../../../src/sheets/mail-state';
import { listRow } from '../../list-rows';
import { useUtilities } from '../../gas-utilities';

useUtilities();

const template: MailTemplate = {
  campaign: 'Spring',
  subject: 'Hello {{First name}}',
  body: 'We ship to {{Company|you}}.',
  bodyFormat: 'text',
};
const context = (over: Partial<PlanContext> = {}): PlanContext => ({
  doNotContact: { addresses: new Map(), domains: new Map() },
  failures: new Map(),
  zone: 'Etc/UTC',
  unsubscribeAddress: '',
  ...over,
});
const person = (n: number, email?: string, over = {}) =>
  listRow(n, { email, cells: { 'First name': `Person ${n}` }, ...over });
const textOf = (plan: ReturnType<typeof planSend>) =>
  Object.fromEntries([...plan.skipped].map(([row, state]) => [row, stateText(state)]));

describe('planSend', () => {
  test('rows with an address and a complete mail are sent, in sheet order', () => {
    const rows = [person(2), person(3), person(4)];
    const plan = planSend(template, rows, rows, false, context());
    expect(plan.rows.map((r) => r.rowNumber)).toEqual([2, 3, 4]);
    expect(plan.skipped.size).toBe(0);
  });

  test('no address, an invalid address: skipped with the reason, counted by code', () => {
    const rows = [person(2, ''), person(3, 'not an address'), person(4)];
    const plan = planSend(template, rows, rows, false, context());
    expect(plan.rows.map((r) => r.rowNumber)).toEqual([4]);
    expect(textOf(plan)).toEqual({
      2: 'Skipped: no e-mail address',
      3: 'Skipped: "not an address" is not a valid e-mail address',
    });
    expect([...plan.reasons]).toEqual([
      ['no-address', 1],
      ['invalid-address', 1],
    ]);
  });

  test('the same address twice (any case): the later row is a duplicate of the first', () => {
    const rows = [person(2, 'ann@acme.com'), person(3, 'ANN@acme.com ')];
    const plan = planSend(template, rows, rows, false, context());
    expect(plan.rows.map((r) => r.rowNumber)).toEqual([2]);
    expect(textOf(plan)).toEqual({ 3: 'Skipped: duplicate of row 2' });
  });

  test('an address this sheet already sent to in another row is not mailed again', () => {
    const sent = person(2, 'ann@acme.com', { state: { kind: 'sent' }, mailId: '501' });
    const again = person(7, 'ann@acme.com');
    const plan = planSend(template, [again], [sent, again], false, context());
    expect(plan.rows).toEqual([]);
    expect(textOf(plan)).toEqual({ 7: 'Skipped: already sent to this address in row 2' });
  });

  test('rows already sent are counted and left as they are', () => {
    const sent = person(2, undefined, { state: { kind: 'delivered' }, mailId: '501' });
    const plan = planSend(template, [sent], [sent], false, context());
    expect(plan.alreadySent).toBe(1);
    expect(plan.skipped.size).toBe(0);
  });

  test('an address or domain on the do-not-contact list is skipped with its reason', () => {
    const rows = [person(2, 'ann@acme.com'), person(3, 'bob@sales.globex.com')];
    const doNotContact = {
      addresses: new Map([['ann@acme.com', 'asked by phone']]),
      domains: new Map([['globex.com', '']]),
    };
    const plan = planSend(template, rows, rows, false, context({ doNotContact }));
    expect(textOf(plan)).toEqual({
      2: 'Skipped: on the do-not-contact list (asked by phone)',
      3: 'Skipped: on the do-not-contact list',
    });
    expect(plan.reasons.get('do-not-contact')).toBe(2);
  });

  test('a placeholder that inserts nothing holds the row ("Not sent"), naming it and a fallback', () => {
    const rows = [listRow(2), listRow(3), person(4)];
    const plan = planSend(template, rows, rows, false, context());
    expect(plan.rows.map((r) => r.rowNumber)).toEqual([4]);
    expect(textOf(plan)[2]).toBe(
      'Not sent: {{First name}} is empty; a fallback such as {{First name|there}} fills it',
    );
    expect([...plan.emptyPlaceholders]).toEqual([['First name', 2]]);
    expect(plan.reasons.get('empty-placeholder')).toBe(2);
  });

  test('a subject over the limit after filling in is skipped with its length', () => {
    const rows = [listRow(2, { cells: { 'First name': 'x'.repeat(300) } })];
    const plan = planSend(template, rows, rows, false, context());
    expect(textOf(plan)[2]).toBe('Skipped: the subject has 306 characters after filling in (at most 200)');
  });

  describe('addresses whose earlier mail failed', () => {
    const failures = new Map([
      ['ann@acme.com', { reason: 'Mailbox unavailable', at: Date.UTC(2026, 0, 5, 12) }],
    ]);

    test('an unselected send skips them, with the failure and its date', () => {
      const rows = [person(2, 'ann@acme.com')];
      const plan = planSend(template, rows, rows, false, context({ failures }));
      expect(textOf(plan)).toEqual({
        2: 'Skipped: an earlier mail to this address failed (Mailbox unavailable, 2026-01-05)',
      });
      expect(plan.failedBefore).toEqual([]);
    });

    test('a send of the selected rows asks first: Yes sends them in sheet order, No skips them', () => {
      const rows = [person(2, 'ann@acme.com'), person(3)];
      const yes = planSend(template, rows, rows, true, context({ failures }));
      expect(yes.failedBefore.map((f) => f.row.rowNumber)).toEqual([2]);
      includeFailedBefore(yes);
      expect(yes.rows.map((r) => r.rowNumber)).toEqual([2, 3]);

      const no = planSend(template, rows, rows, true, context({ failures }));
      skipFailedBefore(no);
      expect(no.rows.map((r) => r.rowNumber)).toEqual([3]);
      expect(no.reasons.get('failed-before')).toBe(1);
      expect(no.skipped.has(2)).toBe(true);
    });

    test('a row whose own mail failed keeps its "Failed: <reason>" whatever skips it', () => {
      const own = person(2, 'ann@acme.com', { state: { kind: 'failed', reason: 'bounced' }, mailId: '9' });
      const unselected = planSend(template, [own], [own], false, context({ failures }));
      expect(unselected.failedEarlier).toBe(1);
      expect(unselected.skipped.size).toBe(0);

      const selected = planSend(template, [own], [own], true, context({ failures }));
      expect(selected.failedBefore[0].own).toBe(true);
      skipFailedBefore(selected);
      expect(selected.failedEarlier).toBe(1);
      expect(selected.skipped.size).toBe(0);
    });
  });
});

describe('isSent and ownFailure', () => {
  test('a row with a Mail ID is sent unless its own mail failed (or a later send wrote "Skipped" over it)', () => {
    expect(isSent({ mailId: '5', state: { kind: 'accepted' } })).toBe(true);
    expect(isSent({ mailId: '', state: { kind: 'sent' } })).toBe(false);
    expect(ownFailure({ mailId: '5', state: { kind: 'failed', reason: '' } })).toBe(true);
    expect(ownFailure({ mailId: '5', state: { kind: 'skipped', code: 'as-written', detail: '' } })).toBe(
      true,
    );
    expect(isSent({ mailId: '5', state: { kind: 'skipped', code: 'as-written', detail: '' } })).toBe(false);
    expect(ownFailure({ mailId: '', state: { kind: 'failed', reason: '' } })).toBe(false);
  });
});

describe('skippedLines', () => {
  test('the confirmation counts each reason, the held rows with the fix, the sent, failed and hidden rows', () => {
    const rows = [
      person(2, ''),
      person(3, 'ann@acme.com'),
      person(4, 'ann@acme.com'),
      listRow(5),
      person(6, undefined, { state: { kind: 'sent' }, mailId: '1' }),
      person(7, undefined, { state: { kind: 'failed', reason: 'x' }, mailId: '2' }),
    ];
    const plan = planSend(template, rows, rows, false, context());
    expect(skippedLines(plan, 3)).toEqual([
      'Skipped (nothing charged; the reason is in "Mail status"): 1 without an e-mail address, 1 duplicate recipient.',
      'Not sent (nothing charged; "Mail status" says so on each): 1 row where {{First name}} is empty. ' +
        'Fill the cells, or give the placeholder a fallback in Compose e-mail… such as {{First name|there}}.',
      '1 already sent: not sent again.',
      '1 failed earlier (see "Mail status"): not sent again; select them and use "Send e-mails to selected rows" to retry.',
      '3 hidden by a filter: skipped.',
    ]);
  });

  test('several empty placeholders are each counted', () => {
    const t = { ...template, body: '{{Company}} {{Title}}' };
    const rows = [
      listRow(2, { cells: { 'First name': 'A' } }),
      listRow(3, { cells: { 'First name': 'B', company: 'C' } }),
    ];
    const plan = planSend(t, rows, rows, false, context());
    expect(skippedLines(plan, 0)).toEqual([
      'Not sent (nothing charged; "Mail status" says so on each): 2 rows where a placeholder is empty ' +
        '({{Company}}: 1 row, {{Title}}: 2 rows). Fill the cells, or give the placeholder a fallback in Compose e-mail… such as {{Company|your company}}.',
    ]);
  });

  test('nothing left out: no line', () => {
    const rows = [person(2)];
    expect(skippedLines(planSend(template, rows, rows, false, context()), 0)).toEqual([]);
  });
});
