// Follow-up steps of a mailing list's mail: up to 5, each sent a number of days (1 to 30, or
// working days in the spreadsheet's time zone) after the previous one, with its own body and an optional
// subject (by default "Re: " and the row's first subject). They are saved with the mail (mail-templates.ts)
// and rendered with the same placeholders. Pure code besides the calendar: no service is called here.
import { type MailTemplate, templateChecks } from './mail-template';
import { DAY_MS } from '../../platform';
import { UserError } from '../errors';

export interface FollowUp {
  /** Days after the previous mail (1 to 30). */
  afterDays: number;
  /** '' = "Re: " and the first mail's subject. */
  subject: string;
  body: string;
  /** Count Monday to Friday only (in the spreadsheet's time zone). */
  workingDaysOnly: boolean;
  /** Only to rows whose previous mail was not opened (where the service reports opens per mail). */
  unopenedOnly: boolean;
}

export const MAX_FOLLOW_UPS = 5;
const MAX_DELAY_DAYS = 30;

/** The dialog's (or a test's) follow-ups, checked: a UserError names what to change. */
export function parseFollowUps(input: unknown): FollowUp[] {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) throw new UserError('The follow-ups must be a list of steps.');
  if (input.length > MAX_FOLLOW_UPS)
    throw new UserError(`A mail has at most ${MAX_FOLLOW_UPS} follow-ups: remove one.`);
  return input.map((raw: Record<string, unknown>, i) => {
    const step = raw || {};
    const days = Number(step.afterDays);
    const name = `Follow-up ${i + 1}`;
    if (!Number.isInteger(days) || days < 1 || days > MAX_DELAY_DAYS)
      throw new UserError(`${name}: the delay is a whole number of days from 1 to ${MAX_DELAY_DAYS}.`);
    const body = String(step.body || '');
    if (!body.trim()) throw new UserError(`${name}: write its body (or remove the step).`);
    if (body.length > 50_000) throw new UserError(`${name}: the body is longer than 50,000 characters.`);
    const subject = String(step.subject || '').trim();
    if (subject.length > 1000) throw new UserError(`${name}: the subject is too long.`);
    return {
      afterDays: days,
      subject,
      body,
      workingDaysOnly: step.workingDaysOnly === true,
      unopenedOnly: step.unopenedOnly === true,
    };
  });
}

/** The campaign of step `n` (1-based) for tracking: "Spring launch · follow-up 1". */
export function stepCampaign(campaign: string, n: number): string {
  return `${campaign.trim()} · follow-up ${n}`;
}

/** Step `n`'s mail as a template of its own: its campaign, its subject (or "Re: " the first), its body. */
export function stepTemplate<T extends MailTemplate>(main: T, followUps: FollowUp[], n: number): T {
  const step = followUps[n - 1];
  return {
    ...main,
    campaign: stepCampaign(main.campaign, n),
    subject: step.subject || `Re: ${main.subject}`,
    body: step.body,
  };
}

/**
 * What stops the steps from being sent, each named ("Follow-up 2: {{Title}} matches no column…"): the checks
 * of the first mail on each step's subject and body (the campaign is the first mail's, checked there).
 */
export function stepProblems(
  main: MailTemplate & { followUps?: FollowUp[] },
  headers: string[],
  unsubscribeAddress?: string,
): string[] {
  const steps = main.followUps || [];
  return steps.flatMap((_step, i) =>
    templateChecks(
      { ...stepTemplate(main, steps, i + 1), campaign: main.campaign },
      headers,
      unsubscribeAddress,
    )
      // The campaign is the first mail's, checked there; a {{Campaign}} placeholder is a step's own problem.
      .filter((problem) => problem.code !== 'campaign')
      .map((problem) => `Follow-up ${i + 1}: ${problem.text}`),
  );
}

/**
 * When a step is due: `days` after `from`, counting Monday to Friday only when `working`; never on a date of
 * `skip` ('YYYY-MM-DD' in `zone`): a working-days count does not count it, a plain count moves past it.
 */
export function dueAt(
  from: number,
  days: number,
  working: boolean,
  zone: string,
  skip: ReadonlySet<string> = new Set(),
): number {
  const skipped = (at: number) =>
    skip.size > 0 && skip.has(Utilities.formatDate(new Date(at), zone, 'yyyy-MM-dd'));
  let at = from;
  if (!working) at = from + days * DAY_MS;
  else
    for (let counted = 0; counted < days;) {
      at += DAY_MS;
      const weekday = Number(Utilities.formatDate(new Date(at), zone, 'u')); // 1 = Monday … 7 = Sunday
      if (weekday <= 5 && !skipped(at)) counted++;
    }
  for (let n = 0; n <= skip.size && skipped(at); n++) at += DAY_MS;
  return at;
}

/** The steps as saved (JSON in the templates sheet), [] when none or unreadable. */
export function followUpsFromText(text: string): FollowUp[] {
  if (!text) return [];
  try {
    return parseFollowUps(JSON.parse(text));
  } catch {
    return [];
  }
}
