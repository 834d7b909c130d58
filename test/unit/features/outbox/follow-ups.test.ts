// src/features/outbox/follow-ups.ts: the follow-up steps as the dialog sends them (checked, each problem
// named by its step), when a step is due (days, or working days in the spreadsheet's zone), and each step's
// own template and problems.
import {
  dueAt,
  followUpsFromText,
  MAX_FOLLOW_UPS,
  parseFollowUps,
  stepCampaign,
  stepProblems,
  stepTemplate,
} from '../../../../src/features/outbox/follow-ups';
import { UserError } from '../../../../src/features/errors';
import type { MailTemplate } from '../../../../src/features/outbox/mail-template';
import { useUtilities } from '../../gas-utilities';

useUtilities();

const DAY = 24 * 3600 * 1000;
const step = (over: Record<string, unknown> = {}) => ({ afterDays: 3, body: 'Any news?', ...over });

describe('parseFollowUps', () => {
  test('no steps: none given, null or an empty list', () => {
    expect(parseFollowUps(undefined)).toEqual([]);
    expect(parseFollowUps(null)).toEqual([]);
    expect(parseFollowUps([])).toEqual([]);
  });

  test('a step keeps its delay, body and trimmed subject; its options are true only when ticked', () => {
    expect(
      parseFollowUps([step({ subject: '  Again ', workingDaysOnly: true, unopenedOnly: 'yes' })]),
    ).toEqual([
      { afterDays: 3, subject: 'Again', body: 'Any news?', workingDaysOnly: true, unopenedOnly: false },
    ]);
    expect(parseFollowUps([step({ afterDays: '7' })])[0].afterDays).toBe(7);
  });

  test.each([
    [[step({ afterDays: 0 })], 'Follow-up 1: the delay is a whole number of days from 1 to 30.'],
    [[step(), step({ afterDays: 31 })], 'Follow-up 2: the delay is a whole number of days from 1 to 30.'],
    [[step({ afterDays: 1.5 })], 'Follow-up 1: the delay is a whole number of days from 1 to 30.'],
    [[step({ body: '  \n ' })], 'Follow-up 1: write its body (or remove the step).'],
    [[step({ body: 'x'.repeat(50_001) })], 'Follow-up 1: the body is longer than 50,000 characters.'],
    [[step({ subject: 's'.repeat(1001) })], 'Follow-up 1: the subject is too long.'],
    [Array(MAX_FOLLOW_UPS + 1).fill(step()), 'A mail has at most 5 follow-ups: remove one.'],
    ['every 3 days', 'The follow-ups must be a list of steps.'],
  ])('refused, naming the step and what to change: %#', (input, message) => {
    expect(() => parseFollowUps(input)).toThrow(new UserError(message));
  });
});

describe('followUpsFromText', () => {
  test('the saved steps, or none when nothing or something unreadable was saved', () => {
    expect(followUpsFromText(JSON.stringify([step()]))).toHaveLength(1);
    expect(followUpsFromText('')).toEqual([]);
    expect(followUpsFromText('{not json')).toEqual([]);
    expect(followUpsFromText(JSON.stringify([step({ afterDays: 99 })]))).toEqual([]);
  });
});

describe('dueAt', () => {
  // Friday 2026-01-09 17:00 in Berlin (16:00 UTC).
  const friday = Date.UTC(2026, 0, 9, 16, 0);

  test('calendar days: the same time, that many days later', () => {
    expect(dueAt(friday, 3, false, 'Europe/Berlin')).toBe(friday + 3 * DAY);
  });

  test('never on a date to skip: a calendar count moves past it, a working-days count does not count it', () => {
    const skip = new Set(['2026-01-12', '2026-01-13']); // Monday and Tuesday
    expect(dueAt(friday, 3, false, 'Europe/Berlin', skip)).toBe(friday + 5 * DAY); // Wednesday
    expect(dueAt(friday, 1, true, 'Europe/Berlin', skip)).toBe(friday + 5 * DAY); // Wednesday
    expect(dueAt(friday, 1, false, 'Europe/Berlin', skip)).toBe(friday + DAY); // Saturday: not skipped
  });

  test('working days skip Saturday and Sunday', () => {
    expect(dueAt(friday, 1, true, 'Europe/Berlin')).toBe(friday + 3 * DAY); // Monday
    expect(dueAt(friday, 5, true, 'Europe/Berlin')).toBe(friday + 7 * DAY); // next Friday
    const monday = friday + 3 * DAY;
    expect(dueAt(monday, 2, true, 'Europe/Berlin')).toBe(monday + 2 * DAY); // Wednesday
  });

  test("the weekday is the spreadsheet's: Friday 20:00 UTC is already Saturday in Tokyo", () => {
    const fridayEvening = Date.UTC(2026, 0, 9, 20, 0);
    // Still Friday in New York: Monday is 3 days on. Already Saturday in Tokyo: Monday is 2 days on.
    expect(dueAt(fridayEvening, 1, true, 'America/New_York')).toBe(fridayEvening + 3 * DAY);
    expect(dueAt(fridayEvening, 1, true, 'Asia/Tokyo')).toBe(fridayEvening + 2 * DAY);
  });
});

describe("a step's own template", () => {
  const main: MailTemplate = {
    campaign: ' Spring ',
    subject: 'Hello {{First name}}',
    body: 'Hi',
    bodyFormat: 'html',
  };
  const steps = parseFollowUps([step(), step({ subject: 'Last chance', body: 'Bye {{Title}}' })]);

  test('its campaign names the step; its subject is "Re: " the first one unless it has its own', () => {
    expect(stepCampaign(' Spring ', 2)).toBe('Spring · follow-up 2');
    expect(stepTemplate(main, steps, 1)).toEqual({
      campaign: 'Spring · follow-up 1',
      subject: 'Re: Hello {{First name}}',
      body: 'Any news?',
      bodyFormat: 'html',
    });
    expect(stepTemplate(main, steps, 2).subject).toBe('Last chance');
  });

  test("stepProblems names each step's problem; the campaign is the first mail's, not repeated", () => {
    const headers = ['E-mail', 'First name'];
    expect(stepProblems({ ...main, followUps: steps }, headers)).toEqual([
      'Follow-up 2: {{Title}} matches no column of this sheet: use one of the headers in row 1.',
    ]);
    expect(stepProblems({ ...main, campaign: '', followUps: steps }, headers)).toHaveLength(1);
    expect(stepProblems(main, headers)).toEqual([]);
  });
});
