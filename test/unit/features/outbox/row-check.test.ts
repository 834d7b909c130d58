// src/features/outbox/row-check.ts: the checks of one row before its mail goes (the same as the preview), as a
// typed code; a row held by an empty placeholder is "Not sent", any other problem "Skipped".
import type { MailTemplate } from '../../../../src/features/outbox/mail-template';
import { problemState, rowProblem } from '../../../../src/features/outbox/row-check';
import { stateText } from '../../../../src/sheets/mail-state';
import { listRow } from '../../list-rows';

const template: MailTemplate = {
  campaign: 'Spring',
  subject: 'Hi {{First name}}',
  body: '{{Note|}} Bye {{Unsubscribe}}',
  bodyFormat: 'text',
};
const row = (email: string, firstName = 'Ann') => listRow(2, { email, cells: { 'First name': firstName } });

describe('rowProblem', () => {
  test('a row with a valid address and every placeholder filled has none', () => {
    expect(rowProblem(template, row('ann@acme.com'), 'out@me.com')).toBeNull();
  });

  test('no address, an invalid one, one over 254 characters', () => {
    expect(rowProblem(template, row(''))).toEqual({ code: 'no-address', reason: 'no e-mail address' });
    expect(rowProblem(template, row('ann@'))?.code).toBe('invalid-address');
    const address = (lastLabel: number) =>
      `${'a'.repeat(64)}@${['b'.repeat(61), 'c'.repeat(61), 'd'.repeat(lastLabel)].join('.')}.com`;
    expect(address(61)).toHaveLength(254);
    expect(rowProblem(template, row(address(61)))).toBeNull();
    expect(rowProblem(template, row(address(62)))?.code).toBe('invalid-address');
  });

  test('an empty placeholder without fallback: held, with the placeholders as written', () => {
    const problem = rowProblem(template, row('ann@acme.com', ''));
    expect(problem).toMatchObject({ code: 'empty-placeholder', placeholders: ['First name'] });
    expect(stateText(problemState(problem!))).toBe(
      'Not sent: {{First name}} is empty; a fallback such as {{First name|there}} fills it',
    );
  });

  test('a mail too long after filling in: skipped, naming the part', () => {
    const problem = rowProblem(template, row('ann@acme.com', 'x'.repeat(200)));
    expect(problem?.code).toBe('subject');
    expect(stateText(problemState(problem!))).toBe(
      'Skipped: the subject has 203 characters after filling in (at most 200)',
    );
  });

  test('the unsubscribe line counts in the body length', () => {
    const long = { ...template, subject: 'Hi', body: `${'x'.repeat(49_990)} {{Unsubscribe}}` };
    expect(rowProblem(long, row('ann@acme.com'))).toBeNull(); // without an address it inserts nothing
    expect(rowProblem(long, row('ann@acme.com'), 'out@me.com')?.code).toBe('body');
  });
});
