// Mail templates: {{Header}} inserts the value of that column of the row, {{Header|fallback}} the fallback
// when the cell is empty; a row where a placeholder without fallback would insert nothing is held (see
// emptyPlaceholders), never sent with a gap. Headers match as the user sees them, ignoring case and extra
// spaces. In an HTML body the inserted values are HTML-escaped: a contact name holding <script> is sent as
// text.
// {{Unsubscribe}} is the unsubscribe line: a mailto: link (HTML) or a line (text) to the address set in
// Settings, subject "Unsubscribe" (the service has no unsubscribe endpoint: the user receives the replies
// and adds the senders to the Do not contact sheet). Pure code: no service is called here.
import { SEND_TEXTS } from './send-texts';
import { charCount, cleanLine, LIMITS } from '../../api';
import { splitName, normalizeHeader } from '../../sheets';
import { plural } from '../../platform';

export type BodyFormat = 'text' | 'html';

export interface MailTemplate {
  /** Sent as the task_subject (with the chunk's tag); at most 255 characters with the tag. */
  campaign: string;
  subject: string;
  body: string;
  bodyFormat: BodyFormat;
}

interface RenderedMail {
  subject: string;
  body: string;
}

const PLACEHOLDER = /\{\{\s*([^{}|]*?)\s*(?:\|([^{}]*))?\}\}/g;

/** The room the chunk tag takes in task_subject: " · " plus a 17-character tag (# mark random). */
const TAG_ROOM = 20;
export const MAX_CAMPAIGN = LIMITS.taskSubjectMax - TAG_ROOM;

const UNSUBSCRIBE = 'unsubscribe';

/** The {{Unsubscribe}} line in an HTML or a text body. */
export function unsubscribeLine(address: string, format: BodyFormat): string {
  const mailto = `mailto:${address}?subject=Unsubscribe`;
  if (format === 'html') return `<a href="${escapeHtml(mailto)}">Unsubscribe</a>`;
  // A text mail shows its text as it is: a raw mailto: address with ?subject= would read as noise.
  return `To unsubscribe, reply to ${address} with the subject "Unsubscribe".`;
}

function usesUnsubscribe(template: MailTemplate): boolean {
  return [...template.body.matchAll(PLACEHOLDER)].some((m) => normalizeHeader(m[1]) === UNSUBSCRIBE);
}

/** Advice that does not stop a send: a campaign without an unsubscribe line. */
export function templateWarnings(template: MailTemplate): string[] {
  if (!template.body.trim() || usesUnsubscribe(template)) return [];
  return [
    'This mail has no unsubscribe line: add {{Unsubscribe}} to the body (a link to the unsubscribe address set in Settings). Recipients who reply "Unsubscribe" reach you: add them to the Do not contact sheet.',
  ];
}

/**
 * Problems of the template itself, found before any row is looked at (placeholders naming no header…).
 * `unsubscribeAddress` (when given) is checked for a body that uses {{Unsubscribe}}.
 */
export function templateProblems(
  template: MailTemplate,
  headers: string[],
  unsubscribeAddress?: string,
): string[] {
  return templateChecks(template, headers, unsubscribeAddress).map((problem) => problem.text);
}

/** The words of the template's problems (the compose dialog and a send show them). */
const TEMPLATE_TEXTS = {
  noCampaign: 'Give the campaign a name.',
  longCampaign: (max: number) => `The campaign name is too long: at most ${max} characters.`,
  noSubject: 'Write a subject.',
  noBody: 'Write the body of the mail.',
  noUnsubscribeAddress: '{{Unsubscribe}} needs an unsubscribe address: set it in Settings.',
  unknownPlaceholders: (names: string[]) =>
    names.join(', ') +
    ` ${plural(names.length, 'matches', 'match')} no column` +
    ' of this sheet: use one of the headers in row 1.',
};

/** A problem of the template: what it is about, and its words. */
interface TemplateProblem {
  /** 'placeholder': a placeholder names no column (the mail cannot be rendered). */
  code: 'campaign' | 'subject' | 'body' | 'unsubscribe' | 'placeholder';
  text: string;
}

/** templateProblems with what each is about. */
export function templateChecks(
  template: MailTemplate,
  headers: string[],
  unsubscribeAddress?: string,
): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const add = (code: TemplateProblem['code'], text: string) => problems.push({ code, text });
  if (!template.campaign.trim()) add('campaign', TEMPLATE_TEXTS.noCampaign);
  else if (charCount(template.campaign.trim()) > MAX_CAMPAIGN)
    add('campaign', TEMPLATE_TEXTS.longCampaign(MAX_CAMPAIGN));
  if (!template.subject.trim()) add('subject', TEMPLATE_TEXTS.noSubject);
  if (!template.body.trim()) add('body', TEMPLATE_TEXTS.noBody);
  const known = new Set([...headers.map(normalizeHeader).filter(Boolean), UNSUBSCRIBE]);
  if (known.has(NAME)) [FIRST_NAME, LAST_NAME].forEach((derived) => known.add(derived));
  if (unsubscribeAddress === '' && usesUnsubscribe(template)) {
    add('unsubscribe', TEMPLATE_TEXTS.noUnsubscribeAddress);
  }
  const unknown = unknownPlaceholders(template, known);
  if (unknown.length > 0) {
    add('placeholder', TEMPLATE_TEXTS.unknownPlaceholders(unknown.map((name) => `{{${name}}}`)));
  }
  return problems;
}

/** Placeholders naming no column, each once (as first written), however often and in whatever case used. */
function unknownPlaceholders(template: MailTemplate, known: Set<string>): string[] {
  const unknown = new Map<string, string>();
  for (const text of [template.subject, template.body]) {
    for (const match of text.matchAll(PLACEHOLDER)) {
      const key = normalizeHeader(match[1]);
      if (!known.has(key) && !unknown.has(key)) unknown.set(key, match[1] || '(empty)');
    }
  }
  return [...unknown.values()];
}

const NAME = 'name';
const FIRST_NAME = 'first name';
const LAST_NAME = 'last name';

/**
 * A cell of the row by normalised header. {{First name}} and {{Last name}} whose cell is empty or missing
 * come from the Name column (sheets/person-name.ts): a list with a Name but an empty First name greets the
 * person by name, never with a gap.
 */
function valueOf(values: Map<string, string>, key: string): string {
  const value = values.get(key) || '';
  if (value.trim() !== '' || (key !== FIRST_NAME && key !== LAST_NAME)) return value;
  const parts = splitName(values.get(NAME) || '');
  return key === FIRST_NAME ? parts.first : parts.last;
}

/** One placeholder of a row: what it inserts; `empty` when that is nothing and no fallback was written. */
function placeholderValue(
  name: string,
  fallback: string | undefined,
  values: Map<string, string>,
): { text: string; empty: boolean } {
  const value = valueOf(values, normalizeHeader(name));
  if (value.trim() !== '') return { text: value, empty: false };
  // A fallback written empty ({{Title|}}) is the user's choice of nothing: not a gap.
  return fallback === undefined ? { text: '', empty: true } : { text: fallback, empty: false };
}

/**
 * The placeholders that would insert nothing in this row (an empty cell and no fallback), each once as first
 * written: such a row is held ("Hi ," is never sent). {{Unsubscribe}} is checked with the template.
 */
export function emptyPlaceholders(template: MailTemplate, values: Map<string, string>): string[] {
  const empty = new Map<string, string>();
  for (const text of [template.subject, template.body]) {
    for (const match of text.matchAll(PLACEHOLDER)) {
      const key = normalizeHeader(match[1]);
      if (key === UNSUBSCRIBE || empty.has(key)) continue;
      if (placeholderValue(match[1], match[2], values).empty) empty.set(key, match[1]);
    }
  }
  return [...empty.values()];
}

/**
 * The mail of one row: `values` maps each normalised header to the cell as displayed. With `showGaps` a
 * placeholder that inserts nothing stays as written (the preview of a held row shows where the gap is).
 */
export function renderMail(
  template: MailTemplate,
  values: Map<string, string>,
  unsubscribeAddress = '',
  showGaps = false,
): RenderedMail {
  const fill = (text: string, escape: boolean) =>
    text.replace(PLACEHOLDER, (all: string, name: string, fallback: string | undefined) => {
      if (normalizeHeader(name) === UNSUBSCRIBE && unsubscribeAddress) {
        return unsubscribeLine(unsubscribeAddress, escape ? 'html' : 'text');
      }
      const value = placeholderValue(name, fallback, values);
      const shown = value.empty && showGaps ? all : value.text;
      return escape ? escapeHtml(shown) : shown;
    });
  return {
    // A subject is one line, cleaned as the request cleans it (line breaks become spaces, other control
    // characters go): the preview and the length check see what is sent.
    subject: cleanLine(fill(template.subject, false)),
    body: fill(template.body, template.bodyFormat === 'html'),
  };
}

/** Why this rendered mail cannot be sent, or null. */
export function mailProblem(mail: RenderedMail): { part: 'subject' | 'body'; text: string } | null {
  const subject = charCount(mail.subject);
  if (subject === 0) return { part: 'subject', text: SEND_TEXTS.subjectEmpty };
  if (subject > LIMITS.subjectMax)
    return { part: 'subject', text: SEND_TEXTS.subjectTooLong(subject, LIMITS.subjectMax) };
  const body = charCount(mail.body);
  if (body > LIMITS.contentMax)
    return { part: 'body', text: SEND_TEXTS.bodyTooLong(body, LIMITS.contentMax) };
  return null;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The task_subject of a chunk: the campaign and the chunk's tag (searchable to settle a lost answer). */
export function taskSubject(campaign: string, tag: string): string {
  return `${campaign.trim()} · ${tag}`;
}

/** The normalised names of the placeholders in `text` ({{Unsubscribe}} included). */
export function placeholderNames(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => normalizeHeader(match[1]));
}
