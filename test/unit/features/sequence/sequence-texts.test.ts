// src/features/sequence/sequence-texts.ts: what a Sequence cell says for each view (sequenceText), read back
// to its kind (parseSequence), why a due step waits, and the confirmation's, Compose's and the summary's lines.
import type { Wait } from '../../../../src/features/outbox/sequence-records';
import {
  parseSequence,
  sequenceCostLine,
  sequenceNote,
  sequenceSummary,
  sequenceText,
  type SequenceView,
  stepLines,
  waitText,
} from '../../../../src/features/sequence/sequence-texts';

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
const AT = Date.UTC(2026, 2, 12, 9);
const SENT = Date.UTC(2026, 2, 9, 9);
const step = (afterDays: number, body: string, over = {}) => ({
  afterDays,
  subject: '',
  body,
  workingDaysOnly: false,
  unopenedOnly: false,
  ...over,
});

describe('sequenceText', () => {
  test('the next step and when; from step 2 on, what was sent before it', () => {
    expect(sequenceText({ kind: 'next', step: 1, of: 3, at: AT }, when)).toBe(
      'Next: step 1 on 2026-03-12 09:00',
    );
    expect(sequenceText({ kind: 'next', step: 2, of: 3, at: AT, sentAt: SENT }, when)).toBe(
      'Step 1 of 3 sent 2026-03-09 09:00; next: step 2 on 2026-03-12 09:00',
    );
  });

  test('a due step that waits says why', () => {
    const view: SequenceView = { kind: 'waiting', step: 2, wait: { code: 'credits', detail: '3 left' } };
    expect(sequenceText(view, when)).toBe(
      'Next: step 2 is due and waits: too few e-mail credits (3 left); the hourly run tries again',
    );
  });

  test('held, stopped with its reason, finished', () => {
    expect(sequenceText({ kind: 'held' }, when)).toMatch(
      /^Held: this row changed after its follow-ups were confirmed/,
    );
    expect(sequenceText({ kind: 'stopped', code: 'replied' }, when)).toBe('Stopped: replied');
    expect(sequenceText({ kind: 'stopped', code: 'optedOut', detail: 'asked by phone' }, when)).toBe(
      'Stopped: on the do-not-contact list (asked by phone)',
    );
    expect(sequenceText({ kind: 'stopped', code: 'company', detail: 'Acme replied' }, when)).toBe(
      'Stopped: Acme replied',
    );
    expect(sequenceText({ kind: 'stopped', code: 'company' }, when)).toBe('Stopped: their company replied');
    expect(sequenceText({ kind: 'finished', of: 2, at: AT }, when)).toBe(
      'Finished: step 2 of 2 sent 2026-03-12 09:00',
    );
  });
});

describe('parseSequence reads back the kind of every view the add-on writes', () => {
  const views: SequenceView[] = [
    { kind: 'next', step: 1, of: 2, at: AT },
    { kind: 'next', step: 2, of: 2, at: AT, sentAt: SENT },
    { kind: 'waiting', step: 1, wait: { code: 'quota', detail: 'back at 14:00' } },
    { kind: 'held' },
    { kind: 'paused', until: AT },
    ...(
      [
        'replied',
        'company',
        'optedOut',
        'menu',
        'failed',
        'opened',
        'gaveUp',
        'firstOnly',
        'problem',
        'removed',
      ] as const
    ).map((code): SequenceView => ({ kind: 'stopped', code, detail: 'x' })),
    { kind: 'finished', of: 3, at: AT },
  ];
  test.each(views.map((view) => [sequenceText(view, when), view.kind]))('%s', (text, kind) => {
    expect(parseSequence(text)).toBe(kind);
    expect(parseSequence(`  ${text}\n`)).toBe(kind);
  });

  test('an empty cell is none', () => {
    expect(parseSequence('')).toBe('none');
    expect(parseSequence('  ')).toBe('none');
  });
});

describe('what the mailbox scan decided', () => {
  test('paused until the return day; stopped by a reply on its day', () => {
    expect(sequenceText({ kind: 'paused', until: Date.UTC(2026, 11, 10, 12) }, when)).toBe(
      'Paused: out of office until 2026-12-10',
    );
    expect(sequenceText({ kind: 'stopped', code: 'replied', detail: '2026-12-03' }, when)).toBe(
      'Stopped: replied 2026-12-03',
    );
    expect(sequenceText({ kind: 'stopped', code: 'replied' }, when)).toBe('Stopped: replied');
  });
});

describe('waitText', () => {
  test.each<[Wait, string]>([
    [{ code: 'quota' }, 'waiting for the sending quota; the hourly run tries again'],
    [
      { code: 'quota', detail: 'back at 14:00' },
      'waiting for the sending quota (back at 14:00); the hourly run tries again',
    ],
    [{ code: 'other-key' }, 'it was confirmed with another outreach API key: put that key back in Settings'],
    [
      { code: 'step-problems', detail: 'Follow-up 1: write its body' },
      'fix the follow-ups in Compose e-mail (Follow-up 1: write its body)',
    ],
    [{ code: 'later' }, 'the rest goes at the next hourly run'],
    [{ code: 'busy' }, 'a send is in progress: the next hourly run sends it'],
    [{ code: 'error', detail: 'Service unavailable' }, 'Service unavailable; the hourly run tries again'],
  ])('%j', (wait, text) => {
    expect(waitText(wait)).toBe(text);
  });
});

describe("the confirmation's lines", () => {
  test('the most the sequence costs, and a warning when the usable credits cover less', () => {
    expect(sequenceCostLine(10, 2, 1000)).toBe(
      'Follow-ups: 2 steps after this mail, each only to rows with no reply (their company included): the whole sequence costs at most 30 e-mail credits (10 rows × 3 mails).',
    );
    expect(sequenceCostLine(1000, 1, 1500)).toMatch(
      /costs at most 2,000 e-mail credits \(1,000 rows × 2 mails\)\. The usable e-mail credits cover 1,500: a step that finds too few waits/,
    );
  });

  test('each step\'s delay, subject ("Re: " the first) and first line, cut at 80 characters', () => {
    const lines = stepLines(
      [
        step(3, '\n  Just checking in.\nMore'),
        step(2, 'x'.repeat(100), { subject: 'Last one', workingDaysOnly: true }),
      ],
      'Hello',
      1,
    );
    expect(lines).toEqual([
      '  Step 1, 3 days later: "Re: Hello" — Just checking in.',
      `  Step 2, 2 working days later: "Last one" — ${'x'.repeat(79)}…`,
      'The sequence reaches 1 person in all (this send and the earlier ones of this list).',
    ]);
  });
});

describe('sequenceNote', () => {
  test("Compose's note under the steps; none without steps", () => {
    expect(sequenceNote(null)).toBe('');
    expect(sequenceNote({ followUps: [] })).toBe('');
    expect(sequenceNote({ followUps: [step(1, 'a'), step(4, 'b', { workingDaysOnly: true })] })).toMatch(
      /^2 follow-ups \(1: 1 day later, 2: 4 working days later\), sent by the hourly run to the rows that did not reply\./,
    );
  });
});

describe('sequenceSummary', () => {
  test('one line per running sequence: started, its next step, or why a due step waits', () => {
    expect(
      sequenceSummary(
        [
          { sheetName: 'Leads' },
          { sheetName: 'Fairs', state: { nextStep: 2, nextAt: AT, rowsLeft: 1 } },
          { sheetName: 'Import', state: { nextStep: 1, nextAt: AT, rowsLeft: 40, wait: { code: 'busy' } } },
        ],
        when,
      ),
    ).toEqual([
      'Follow-ups of "Leads": started; the hourly run sends each step when it is due.',
      'Follow-ups of "Fairs": next step 2 on 2026-03-12 09:00, 1 row left.',
      'Follow-ups of "Import": step 1 is due and waits: a send is in progress: the next hourly run sends it (40 rows left).',
    ]);
  });
});
