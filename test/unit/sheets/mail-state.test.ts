// src/sheets/mail-state.ts: stateText and parseState are one pair between a Mail status and its cell text;
// the texts of version 1.0 are still read; idOf accepts only the ids the add-on writes.
import {
  idOf,
  isFinal,
  isGone,
  isOwnState,
  isQueued,
  type MailState,
  notSent,
  NO_STATE,
  parseState,
  skipped,
  stateText,
} from '../../../src/sheets/mail-state';
import { MAIL_STATUS_TEXTS } from '../../../src/sheets/mail-words';

describe('stateText', () => {
  test('an empty state is an empty cell; a typed text is kept as written', () => {
    expect(stateText(NO_STATE)).toBe('');
    expect(stateText({ kind: 'typed', text: 'call back in May' })).toBe('call back in May');
  });

  test('a detail follows the word after a colon, a waiting detail in brackets', () => {
    expect(stateText({ kind: 'failed', reason: 'mailbox full' })).toBe('Failed: mailbox full');
    expect(stateText({ kind: 'failed', reason: '' })).toBe('Failed');
    expect(stateText(skipped('duplicate', 'same address as row 4'))).toBe('Skipped: same address as row 4');
    expect(stateText(notSent('send-stopped', ''))).toBe('Not sent');
    expect(stateText({ kind: 'waiting', detail: 'back at 14:00' })).toBe(
      'Waiting for the sending quota (back at 14:00)',
    );
    expect(stateText({ kind: 'stopped', detail: 'by Ann' })).toBe('Stopped: by Ann');
  });
});

describe('parseState reads back what stateText writes', () => {
  const states: MailState[] = [
    { kind: 'queued' },
    { kind: 'waiting', detail: 'back at 14:00' },
    { kind: 'waiting', detail: '' },
    { kind: 'waiting', code: 'window', detail: 'goes from 09:00 Mon 5 Jan in America/New_York' },
    { kind: 'waiting', code: 'pace', detail: '50 an hour from this list; the next go from 14:00' },
    {
      kind: 'waiting',
      code: 'test',
      detail: 'gets the winning subject of the test, decided 2026-01-05 13:00',
    },
    { kind: 'accepted' },
    { kind: 'pending' },
    { kind: 'requested' },
    { kind: 'sent' },
    { kind: 'delivered' },
    { kind: 'failed', reason: 'mailbox full' },
    { kind: 'failed', reason: '' },
    { kind: 'stopped', detail: 'by Ann' },
    { kind: 'otherKey' },
    { kind: 'notThisDocument' },
  ];
  test.each(states.map((s) => [stateText(s), s]))('%s', (text, state) => {
    expect(parseState(text)).toEqual(state);
  });

  test('a skip or a refusal comes back with its words and the code "as-written"', () => {
    expect(parseState(stateText(skipped('duplicate', 'same as row 4')))).toEqual(
      skipped('as-written', 'same as row 4'),
    );
    expect(parseState(stateText(notSent('changed', 'the row changed')))).toEqual(
      notSent('as-written', 'the row changed'),
    );
  });

  test('blank and missing cells are no state; spaces around a word do not matter', () => {
    expect(parseState('')).toEqual(NO_STATE);
    expect(parseState('   ')).toEqual(NO_STATE);
    expect(parseState(null)).toEqual(NO_STATE);
    expect(parseState(undefined)).toEqual(NO_STATE);
    expect(parseState('  Sent ')).toEqual({ kind: 'sent' });
  });

  test('a word that only begins like one of ours is a typed text, kept as written', () => {
    expect(parseState('Sent yesterday')).toEqual({ kind: 'typed', text: 'Sent yesterday' });
    expect(parseState('Failedx')).toEqual({ kind: 'typed', text: 'Failedx' });
    expect(parseState('queued')).toEqual({ kind: 'typed', text: 'queued' });
    expect(parseState(42)).toEqual({ kind: 'typed', text: '42' });
  });
});

describe('the words of version 1.0 are read whatever the words written now', () => {
  const saved = { ...MAIL_STATUS_TEXTS };
  beforeAll(() => {
    for (const key of Object.keys(MAIL_STATUS_TEXTS) as Array<keyof typeof MAIL_STATUS_TEXTS>)
      MAIL_STATUS_TEXTS[key] = `«${saved[key]}»`;
  });
  afterAll(() => Object.assign(MAIL_STATUS_TEXTS, saved));

  test('new words are written and read back', () => {
    expect(stateText({ kind: 'sent' })).toBe('«Sent»');
    expect(parseState('«Failed»: bounced')).toEqual({ kind: 'failed', reason: 'bounced' });
  });

  test('the old words still mean their state', () => {
    expect(parseState('Sent')).toEqual({ kind: 'sent' });
    expect(parseState('Queued')).toEqual({ kind: 'queued' });
    expect(parseState('Failed: bounced')).toEqual({ kind: 'failed', reason: 'bounced' });
    expect(parseState('Waiting for the sending quota (back at 9:00)')).toEqual({
      kind: 'waiting',
      detail: 'back at 9:00',
    });
    expect(parseState('Not a mail of this document')).toEqual({ kind: 'notThisDocument' });
  });
});

describe('what a state means for the send and for tracking', () => {
  test('queued: planned in a running send, waiting included', () => {
    expect(isQueued({ kind: 'queued' })).toBe(true);
    expect(isQueued({ kind: 'waiting', detail: '' })).toBe(true);
    expect(isQueued({ kind: 'accepted' })).toBe(false);
  });

  test('gone: the service took it and it did not fail', () => {
    expect(['accepted', 'sent', 'delivered'].map((kind) => isGone({ kind } as MailState))).toEqual([
      true,
      true,
      true,
    ]);
    expect(isGone({ kind: 'failed', reason: 'x' })).toBe(false);
    expect(isGone({ kind: 'pending' })).toBe(false);
  });

  test('final: delivered, failed and not of this document are not read again', () => {
    expect(isFinal({ kind: 'delivered' })).toBe(true);
    expect(isFinal({ kind: 'failed', reason: '' })).toBe(true);
    expect(isFinal({ kind: 'notThisDocument' })).toBe(true);
    expect(isFinal({ kind: 'sent' })).toBe(false);
    expect(isFinal({ kind: 'pending' })).toBe(false);
  });

  test("own state: the add-on's words, never a typed text or an empty cell's absence of one", () => {
    expect(isOwnState('Delivered')).toBe(true);
    expect(isOwnState('Skipped: no address')).toBe(true);
    expect(isOwnState('')).toBe(true);
    expect(isOwnState('call back')).toBe(false);
  });
});

describe('idOf', () => {
  test('a whole positive number, or its digits as text', () => {
    expect(idOf(123)).toBe(123);
    expect(idOf(' 987654321 ')).toBe(987654321);
    expect(idOf('9007199254740991')).toBe(9007199254740991);
  });

  test('a date, a word, TRUE, a fraction, zero, a sign or a number past 2^53 is not an id', () => {
    expect(idOf(new Date(2026, 0, 5))).toBeNull();
    expect(idOf('abc')).toBeNull();
    expect(idOf(true)).toBeNull();
    expect(idOf(12.5)).toBeNull();
    expect(idOf('12.5')).toBeNull();
    expect(idOf(0)).toBeNull();
    expect(idOf('-4')).toBeNull();
    expect(idOf('+4')).toBeNull();
    expect(idOf('')).toBeNull();
    expect(idOf('9007199254740993')).toBeNull();
    expect(idOf('12345678901234567')).toBeNull();
    expect(idOf(null)).toBeNull();
  });
});
