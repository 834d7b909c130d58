// src/features/outbox/mail-template.ts: placeholders fill a mail from its row ({{Header}}, {{Header|fallback}},
// {{Unsubscribe}}), HTML bodies get escaped values, a placeholder that would insert nothing holds the row,
// and a template's own problems are found before any row is looked at.
import {
  emptyPlaceholders,
  escapeHtml,
  MAX_CAMPAIGN,
  type MailTemplate,
  mailProblem,
  placeholderNames,
  renderMail,
  taskSubject,
  templateChecks,
  templateProblems,
  templateWarnings,
  unsubscribeLine,
} from '../../../../src/features/outbox/mail-template';

const template = (over: Partial<MailTemplate> = {}): MailTemplate => ({
  campaign: 'Spring offer',
  subject: 'Hello {{First name}}',
  body: 'Hi {{First name}}, we ship to {{ company }}.',
  bodyFormat: 'text',
  ...over,
});
/** A row's values by normalised header, as the mailing list reads them. */
const values = (cells: Record<string, string>) =>
  new Map(Object.entries(cells).map(([header, value]) => [header.toLowerCase(), value]));

describe('renderMail', () => {
  test('each placeholder inserts its column, matched ignoring case and extra spaces', () => {
    const mail = renderMail(template(), values({ 'first name': 'Ann', company: 'Acme' }));
    expect(mail).toEqual({ subject: 'Hello Ann', body: 'Hi Ann, we ship to Acme.' });
    const spaced = renderMail(template({ body: '{{  COMPANY   }}' }), values({ company: 'Acme' }));
    expect(spaced.body).toBe('Acme');
  });

  test('a fallback is used when the cell is empty; an empty fallback is the choice of nothing', () => {
    const mail = renderMail(
      template({ subject: 'Hi {{First name|there}}', body: 'At {{Company|your company}}{{Title|}}.' }),
      values({ 'first name': ' ', company: '' }),
    );
    expect(mail).toEqual({ subject: 'Hi there', body: 'At your company.' });
  });

  test('{{First name}} and {{Last name}} come from Name when their cells are empty or missing', () => {
    const mail = renderMail(
      template({ subject: '{{First name}}', body: '{{Last name}}' }),
      values({ name: 'Dr. Jane Doe', 'first name': '' }),
    );
    expect(mail).toEqual({ subject: 'Jane', body: 'Doe' });
  });

  test('an HTML body gets escaped values; a text body and the subject get them as they are', () => {
    const row = values({ 'first name': '<b>Ann</b> & "Co"', company: "O'Neil" });
    const html = renderMail(template({ bodyFormat: 'html' }), row);
    expect(html.body).toBe('Hi &lt;b&gt;Ann&lt;/b&gt; &amp; &quot;Co&quot;, we ship to O&#39;Neil.');
    expect(html.subject).toBe('Hello <b>Ann</b> & "Co"');
    expect(renderMail(template(), row).body).toBe(`Hi <b>Ann</b> & "Co", we ship to O'Neil.`);
  });

  test('the subject is one line: a line break in a value becomes a space', () => {
    const mail = renderMail(template(), values({ 'first name': 'Ann\r\nBcc: x@y.z', company: 'A' }));
    expect(mail.subject).toBe('Hello Ann Bcc: x@y.z');
  });

  test('{{Unsubscribe}} is a mailto link in HTML and a sentence in text, to the address of Settings', () => {
    const html = renderMail(
      template({ body: '{{Unsubscribe}}', bodyFormat: 'html' }),
      values({}),
      'out@me.com',
    );
    expect(html.body).toBe('<a href="mailto:out@me.com?subject=Unsubscribe">Unsubscribe</a>');
    const text = renderMail(template({ body: '{{unsubscribe}}' }), values({}), 'out@me.com');
    expect(text.body).toBe(unsubscribeLine('out@me.com', 'text'));
    expect(text.body).toContain('reply to out@me.com with the subject "Unsubscribe"');
  });

  test('with showGaps, a placeholder that inserts nothing stays as written (the preview of a held row)', () => {
    const mail = renderMail(template(), values({ company: 'Acme' }), '', true);
    expect(mail.body).toBe('Hi {{First name}}, we ship to Acme.');
    expect(renderMail(template(), values({ company: 'Acme' })).body).toBe('Hi , we ship to Acme.');
  });
});

describe('emptyPlaceholders', () => {
  test('each placeholder that would insert nothing, once, as first written', () => {
    const t = template({
      subject: '{{first NAME}}',
      body: '{{First name}} {{Title}} {{Company|you}} {{Unsubscribe}}',
    });
    expect(emptyPlaceholders(t, values({}))).toEqual(['first NAME', 'Title']);
    expect(emptyPlaceholders(t, values({ 'first name': 'Ann', title: 'CEO' }))).toEqual([]);
  });

  test('a Name column fills an empty First name: nothing is held', () => {
    expect(
      emptyPlaceholders(template({ body: '{{First name}}' }), values({ name: 'Ann Lee', company: 'A' })),
    ).toEqual([]);
  });
});

describe('templateChecks', () => {
  const headers = ['E-mail', 'First name', 'Company'];

  test('a complete template over known headers has no problem', () => {
    expect(templateChecks(template(), headers)).toEqual([]);
    expect(templateProblems(template(), headers)).toEqual([]);
  });

  test('each missing part is named with its code', () => {
    const checks = templateChecks(template({ campaign: ' ', subject: '', body: '\n' }), headers);
    expect(checks.map((c) => c.code)).toEqual(['campaign', 'subject', 'body']);
    expect(checks.map((c) => c.text)).toEqual([
      'Give the campaign a name.',
      'Write a subject.',
      'Write the body of the mail.',
    ]);
  });

  test('a campaign longer than the task subject leaves room for is refused with the limit', () => {
    expect(templateChecks(template({ campaign: 'x'.repeat(MAX_CAMPAIGN) }), headers)).toEqual([]);
    expect(templateChecks(template({ campaign: 'x'.repeat(MAX_CAMPAIGN + 1) }), headers)).toEqual([
      { code: 'campaign', text: `The campaign name is too long: at most ${MAX_CAMPAIGN} characters.` },
    ]);
  });

  test('placeholders naming no column are listed once each, as first written', () => {
    const t = template({ subject: '{{Titel}}', body: '{{titel}} {{Town}} {{}}' });
    expect(templateChecks(t, headers)).toEqual([
      {
        code: 'placeholder',
        text: '{{Titel}}, {{Town}}, {{(empty)}} match no column of this sheet: use one of the headers in row 1.',
      },
    ]);
    expect(templateProblems(template({ body: '{{Town}}' }), headers)).toEqual([
      '{{Town}} matches no column of this sheet: use one of the headers in row 1.',
    ]);
  });

  test('a Name column makes {{First name}} and {{Last name}} known', () => {
    expect(templateChecks(template({ body: '{{Last name}}' }), ['Email', 'Name', 'Company'])).toEqual([]);
  });

  test('{{Unsubscribe}} needs an unsubscribe address when the check is asked with an empty one', () => {
    const t = template({ body: 'Bye {{Unsubscribe}}' });
    expect(templateChecks(t, headers, '')).toEqual([
      { code: 'unsubscribe', text: '{{Unsubscribe}} needs an unsubscribe address: set it in Settings.' },
    ]);
    expect(templateChecks(t, headers, 'out@me.com')).toEqual([]);
    expect(templateChecks(t, headers)).toEqual([]);
  });
});

describe('templateWarnings', () => {
  test('a body without {{Unsubscribe}} gets the advice; with it, or with no body yet, none', () => {
    expect(templateWarnings(template())).toHaveLength(1);
    expect(templateWarnings(template())[0]).toMatch(/add \{\{Unsubscribe\}\} to the body/);
    expect(templateWarnings(template({ body: 'x {{ UNSUBSCRIBE }}' }))).toEqual([]);
    expect(templateWarnings(template({ body: '' }))).toEqual([]);
  });
});

describe('mailProblem', () => {
  test('an empty subject, a subject over 200 characters, a body over 50,000: the part and the numbers', () => {
    expect(mailProblem({ subject: '', body: 'x' })).toEqual({
      part: 'subject',
      text: 'the subject is empty for this row',
    });
    expect(mailProblem({ subject: 'x'.repeat(201), body: '' })).toEqual({
      part: 'subject',
      text: 'the subject has 201 characters after filling in (at most 200)',
    });
    expect(mailProblem({ subject: 's', body: 'x'.repeat(50_001) })?.part).toBe('body');
  });

  test('characters are counted as the service counts them: an emoji is one', () => {
    expect(mailProblem({ subject: '😀'.repeat(200), body: '' })).toBeNull();
  });
});

describe('small helpers', () => {
  test('escapeHtml escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  test("taskSubject is the trimmed campaign and the chunk's tag", () => {
    expect(taskSubject('  Spring offer ', '#ab12')).toBe('Spring offer · #ab12');
  });

  test('placeholderNames gives the normalised names, {{Unsubscribe}} included', () => {
    expect(placeholderNames('{{ First  Name }} {{Company|x}} {{Unsubscribe}}')).toEqual([
      'first name',
      'company',
      'unsubscribe',
    ]);
  });
});
