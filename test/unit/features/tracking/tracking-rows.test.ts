// src/features/tracking/tracking-rows.ts: what a refresh writes for a mail: its state on Tracking and on the
// row that sent it, the task's campaign, status and opens.
import type { MailRecord, Task } from '../../../../src/api/outreach/email-schemas';
import {
  campaignOf,
  notThisDocumentRecord,
  openedText,
  otherKeyRecord,
  rowState,
  trackedState,
  trackingRecord,
} from '../../../../src/features/tracking/tracking-rows';

const NOW = new Date(Date.UTC(2026, 0, 6, 8));
const mail = (over: Partial<MailRecord>) =>
  ({
    mailId: 11,
    taskId: 5,
    recipientEmail: 'ann@acme.com',
    recipientNickname: '=HYPERLINK("x")',
    subject: 'Hi',
    status: 'sent',
    sentAt: '2026-01-05T10:00:00Z',
    callbackReceivedAt: null,
    failureReason: null,
    ...over,
  }) as MailRecord;
const task = (over: Partial<Task>) =>
  ({
    taskId: 5,
    taskSubject: 'Spring · #0a1b2c3d',
    status: 'completed',
    totalCount: 1,
    openedCount: 0,
    ...over,
  }) as Task;

describe('trackedState and rowState', () => {
  test('sent becomes delivered once the provider confirmed it', () => {
    expect(trackedState({ status: 'sent', callbackReceivedAt: null })).toEqual({ kind: 'sent' });
    expect(trackedState({ status: 'sent', callbackReceivedAt: '2026-01-05T10:01:00Z' })).toEqual({
      kind: 'delivered',
    });
    expect(trackedState({ status: 'pending', callbackReceivedAt: null })).toEqual({ kind: 'pending' });
  });

  test("a failure: Tracking's reason is its own column; the sending row carries it (or says none was given)", () => {
    expect(trackedState({ status: 'failed', callbackReceivedAt: null })).toEqual({
      kind: 'failed',
      reason: '',
    });
    expect(rowState(mail({ status: 'failed', failureReason: 'Mailbox full' }))).toEqual({
      kind: 'failed',
      reason: 'Mailbox full',
    });
    expect(rowState(mail({ status: 'failed' }))).toEqual({
      kind: 'failed',
      reason: 'no reason given by the service',
    });
  });

  test('the sending row changes only once the mail is sent or failed', () => {
    expect(rowState(mail({ status: 'pending' }))).toBeNull();
    expect(rowState(mail({ status: 'requested' }))).toBeNull();
    expect(rowState(mail({ status: 'sent' }))).toEqual({ kind: 'sent' });
  });
});

describe("the task's cells", () => {
  test("opens are the mail's only when the task holds that one mail", () => {
    expect(openedText(task({ totalCount: 1, openedCount: 1 }))).toBe('Yes');
    expect(openedText(task({ totalCount: 1, openedCount: 0 }))).toBe('No');
    expect(openedText(task({ totalCount: 100, openedCount: 30 }))).toBe('per campaign only');
  });

  test("the campaign is the task subject without the chunk's tag", () => {
    expect(campaignOf({ taskSubject: 'Spring offer · #0a1b2c3d4e5f' })).toBe('Spring offer');
    expect(campaignOf({ taskSubject: 'Price list · 2026' })).toBe('Price list · 2026');
    expect(campaignOf({ taskSubject: '' })).toBe('(no campaign name)');
  });
});

describe('trackingRecord', () => {
  test("the mail's row: its cells made safe, its state in words, the task's campaign, status and opens", () => {
    const record = trackingRecord(mail({}), task({ openedCount: 1 }), NOW);
    expect(record).toMatchObject({
      taskId: 5,
      mailId: 11,
      campaign: 'Spring',
      taskStatus: 'All mails sent',
      opened: 'Yes',
      taskOpens: 1,
      nickname: `'=HYPERLINK("x")`,
      mailStatus: 'Sent',
      sentAt: new Date(Date.UTC(2026, 0, 5, 10)),
      confirmedAt: '',
      refreshedAt: NOW,
    });
  });

  test("without its task the task's cells are left as they were; a failed mail was never opened", () => {
    const record = trackingRecord(mail({ status: 'failed', failureReason: 'Mailbox full' }), undefined, NOW);
    expect(record).not.toHaveProperty('campaign');
    expect(record).toMatchObject({
      opened: '',
      taskOpens: '',
      mailStatus: 'Failed',
      failureReason: 'Mailbox full',
    });
  });

  test('a mail not of this document empties every detail; one of another key keeps them', () => {
    const notOurs = notThisDocumentRecord(11, NOW);
    expect(notOurs.mailStatus).toMatch(/^Not a mail of this document/);
    expect(notOurs).toMatchObject({ recipient: '', subject: '', campaign: '', opened: '' });
    expect(notOurs).not.toHaveProperty('taskId');
    expect(otherKeyRecord(11, null, NOW)).toEqual({
      taskId: '',
      mailId: 11,
      mailStatus: 'Sent with another key',
      refreshedAt: NOW,
    });
  });
});
