// Request checks made before sending, response schemas, the phone normaliser and task_subject cleaning.
import { ApiError } from '../../src/api/errors';
import { checkRequest } from '../../src/api/transport/requests';
import { parseWith } from '../../src/api/transport/schema-util';
import {
  BalanceSchema,
  CompanyProfileSchema,
  ProfileEmailsQuerySchema,
  SearchRequestSchema,
  SearchResponseSchema,
  UnlockRequestSchema,
} from '../../src/api/outreach/outreach-schemas';
import {
  MailListQuerySchema,
  SendPersonalizedRequestSchema,
  MailDetailSchema,
  TaskListQuerySchema,
  cleanTaskSubject,
  isValidEmail,
} from '../../src/api/outreach/email-schemas';
import { charCount } from '../../src/api/outreach/schema-parts';
import { normalizePhone } from '../../src/api/phone/phone-number';

function rejected(schema: Parameters<typeof checkRequest>[2], data: unknown): ApiError {
  try {
    checkRequest('outreach', 'POST /test', schema, data);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect(e.kind).toBe('bad-request');
    return e;
  }
  throw new Error('expected a bad-request');
}

const accept = (schema: Parameters<typeof checkRequest>[2], data: unknown) =>
  checkRequest('outreach', 'POST /test', schema, data);

describe('search request checks', () => {
  test('rule 1: at least one non-empty keyword list', () => {
    for (const data of [
      {},
      { productKeywords: [] },
      { productKeywords: ['  ', ''] },
      { includeCountry: ['DE'] },
    ]) {
      expect(rejected(SearchRequestSchema(), data).message).toBe(
        'Enter at least one product, industry or company-type keyword',
      );
    }
    expect(accept(SearchRequestSchema(), { industryKeywords: [' solar ', ''] })).toEqual({
      industryKeywords: ['solar'],
    });
  });

  test('size 1..50, from >= 0, whole numbers', () => {
    const base = { productKeywords: ['pumps'] };
    expect(rejected(SearchRequestSchema(), { ...base, size: 0 }).field).toBe('size');
    expect(rejected(SearchRequestSchema(), { ...base, size: 51 }).message).toBe('size must be 1 to 50');
    expect(rejected(SearchRequestSchema(), { ...base, size: 2.5 }).message).toBe(
      'size must be a whole number',
    );
    expect(rejected(SearchRequestSchema(), { ...base, from: -1 }).message).toBe('from must be 0 or more');
    expect(accept(SearchRequestSchema(), { ...base, size: 50, from: 0 })).toEqual({
      ...base,
      size: 50,
      from: 0,
    });
  });

  test('only the supported fields', () => {
    const e = rejected(SearchRequestSchema(), { productKeywords: ['x'], employees: '10-50', website: 'a' });
    expect(e.message).toMatch(
      /^Unsupported fields "employees", "website": search accepts only productKeywords/,
    );
  });

  test('country codes: ISO alpha-2, lowercase accepted', () => {
    const ok = accept(SearchRequestSchema(), {
      productKeywords: ['x'],
      includeCountry: ['de', ' fr'],
      excludeCountry: ['Us'],
    });
    expect(ok.includeCountry).toEqual(['DE', 'FR']);
    expect(ok.excludeCountry).toEqual(['US']);
    const e = rejected(SearchRequestSchema(), { productKeywords: ['x'], includeCountry: ['DE', 'Germany'] });
    expect(e.field).toBe('includeCountry[1]');
    expect(e.message).toMatch(/two-letter ISO country code/);
    expect(rejected(SearchRequestSchema(), { productKeywords: ['x'], includeCountry: ['XX'] }).field).toBe(
      'includeCountry[0]',
    );
  });

  test('withEmails 0/1 and crossFieldOperator AND/OR', () => {
    expect(rejected(SearchRequestSchema(), { productKeywords: ['x'], withEmails: 2 }).message).toBe(
      'withEmails must be 0 or 1',
    );
    expect(rejected(SearchRequestSchema(), { productKeywords: ['x'], withEmails: true }).message).toBe(
      'withEmails must be 0 or 1',
    );
    expect(
      rejected(SearchRequestSchema(), { productKeywords: ['x'], crossFieldOperator: 'XOR' }).message,
    ).toBe('crossFieldOperator must be AND or OR');
    expect(
      accept(SearchRequestSchema(), { productKeywords: ['x'], crossFieldOperator: 'or', withEmails: 1 }),
    ).toEqual({
      productKeywords: ['x'],
      crossFieldOperator: 'OR',
      withEmails: 1,
    });
  });
});

describe('unlock request checks', () => {
  test('domain and countryCode required', () => {
    expect(rejected(UnlockRequestSchema(), { domain: ' ', countryCode: 'DE' }).field).toBe('domain');
    expect(rejected(UnlockRequestSchema(), { domain: 'a.com', countryCode: '' }).field).toBe('countryCode');
    expect(rejected(UnlockRequestSchema(), { domain: 'a.com' }).field).toBe('countryCode');
    expect(accept(UnlockRequestSchema(), { domain: ' a.com ', countryCode: 'de' })).toEqual({
      domain: 'a.com',
      countryCode: 'DE',
    });
  });
});

describe('send request checks', () => {
  const mail = (i: number, extra: Record<string, unknown> = {}) => ({
    email: `user${i}@example.com`,
    subject: 'Hello',
    content: 'Hi name',
    body_format: 'text',
    ...extra,
  });
  const send = (emails: unknown[], extra: Record<string, unknown> = {}) => ({ emails, ...extra });

  test('1 to 100 e-mails', () => {
    expect(rejected(SendPersonalizedRequestSchema(), send([])).message).toBe('Add at least one e-mail');
    const many = Array.from({ length: 101 }, (_, i) => mail(i));
    expect(rejected(SendPersonalizedRequestSchema(), send(many)).message).toBe(
      'At most 100 e-mails per send',
    );
    expect(accept(SendPersonalizedRequestSchema(), send(many.slice(0, 100))).emails).toHaveLength(100);
  });

  test('invalid e-mail names the e-mail by position and address', () => {
    const e = rejected(
      SendPersonalizedRequestSchema(),
      send([mail(1), mail(2), mail(3, { email: 'bob@@x' })]),
    );
    expect(e.message).toBe('E-mail 3 (bob@@x): e-mail address is not valid');
    expect(e.field).toBe('emails[2].email');
    expect(e.index).toBe(2);
  });

  test('subject 1..200 characters, content <= 50000, body_format', () => {
    expect(rejected(SendPersonalizedRequestSchema(), send([mail(1, { subject: '  ' })])).message).toBe(
      'E-mail 1: subject is empty',
    );
    expect(
      rejected(SendPersonalizedRequestSchema(), send([mail(1, { subject: 'x'.repeat(201) })])).message,
    ).toBe('E-mail 1: subject is longer than 200 characters');
    // 200 characters of astral emoji are 400 UTF-16 units: still 200 characters.
    expect(
      accept(SendPersonalizedRequestSchema(), send([mail(1, { subject: '😀'.repeat(200) })])),
    ).toBeTruthy();
    expect(
      rejected(SendPersonalizedRequestSchema(), send([mail(1, { content: 'x'.repeat(50001) })])).message,
    ).toBe('E-mail 1: content is longer than 50000 characters');
    expect(
      rejected(SendPersonalizedRequestSchema(), send([mail(1, { body_format: 'markdown' })])).message,
    ).toBe('E-mail 1: body_format must be text or html');
  });

  test('task_subject <= 255 after cleaning; cleaning is sent', () => {
    const padded = '\u200B  ' + 'x'.repeat(255) + ' \uFEFF\u0007';
    expect(
      accept(SendPersonalizedRequestSchema(), send([mail(1)], { task_subject: padded })).task_subject,
    ).toBe('x'.repeat(255));
    expect(
      rejected(SendPersonalizedRequestSchema(), send([mail(1)], { task_subject: 'x'.repeat(256) })).message,
    ).toBe('task_subject is longer than 255 characters');
  });

  test('unknown e-mail field is refused (the add-on fills the template itself: no variables are sent)', () => {
    expect(rejected(SendPersonalizedRequestSchema(), send([mail(1, { name: 'x' })])).message).toBe(
      'E-mail 1: Unsupported field "name"',
    );
    const v = rejected(SendPersonalizedRequestSchema(), send([mail(1), mail(2, { variables: { n: 'A' } })]));
    expect(v.message).toBe('E-mail 2: Unsupported field "variables"');
    expect(v.index).toBe(1);
  });
});

describe('list and page checks', () => {
  test('page_size 1..100, page >= 1', () => {
    expect(rejected(TaskListQuerySchema(), { page_size: 0 }).message).toBe('page_size must be 1 to 100');
    expect(rejected(MailListQuerySchema(), { page_size: 101 }).message).toBe('page_size must be 1 to 100');
    expect(rejected(MailListQuerySchema(), { mail_ids: [1, 0] }).field).toBe('mail_ids[1]');
    expect(rejected(TaskListQuerySchema(), { sort_by: 'status' }).field).toBe('sort_by');
    expect(rejected(ProfileEmailsQuerySchema(), { pageSize: 101 }).message).toBe('pageSize must be 1 to 100');
    expect(rejected(ProfileEmailsQuerySchema(), { page: 0 }).message).toBe('page must be 1 or more');
    expect(accept(TaskListQuerySchema(), { task_ids: [1, 2], page_size: 100 })).toEqual({
      task_ids: [1, 2],
      page_size: 100,
    });
  });
});

describe('answer schemas', () => {
  test('a wrong type names the field path', () => {
    const parsed = parseWith(BalanceSchema(), {
      userId: 'u',
      monthlyPoints: '5',
      monthlyEdm: 1,
      addonPoints: 0,
      addonEdm: 0,
    });
    expect(parsed).toEqual({ ok: false, path: 'monthlyPoints', message: 'expected number, got string' });
    const rows = parseWith(SearchResponseSchema(), {
      total: 1,
      list: [{ id: 'r1', company_name: 'A', country_code: 'DE' }],
    });
    expect(rows).toEqual({ ok: false, path: 'list[0].domain', message: 'expected string, got nothing' });
  });

  test('profile: only companyHashId required, tradeData defaults to []', () => {
    expect(parseWith(CompanyProfileSchema(), { companyHashId: 'h1' })).toEqual({
      ok: true,
      value: { companyHashId: 'h1', tradeData: [] },
    });
    const nulls = parseWith(CompanyProfileSchema(), {
      companyHashId: 'h1',
      name: null,
      tradeData: null,
      website: null,
    });
    expect(nulls.ok && nulls.value.tradeData).toEqual([]);
    expect(parseWith(CompanyProfileSchema(), { name: 'x' })).toMatchObject({
      ok: false,
      path: 'companyHashId',
    });
  });

  test('mail detail with content and bodyFormat; an unknown status names its path', () => {
    const mail = {
      mailId: 1,
      taskId: 7,
      recipientEmail: 'a@b.co',
      recipientNickname: '',
      subject: 's',
      status: 'sent',
      sentAt: '2026-01-05T09:00:05.000Z',
      callbackReceivedAt: null,
      failureReason: null,
      content: 'Hi',
      bodyFormat: 'text',
    };
    expect(parseWith(MailDetailSchema(), mail).ok).toBe(true);
    expect(parseWith(MailDetailSchema(), { ...mail, status: 'bounced' })).toMatchObject({
      ok: false,
      path: 'status',
    });
  });
});

describe('helpers', () => {
  test('cleanTaskSubject strips edge whitespace and invisible characters only', () => {
    expect(cleanTaskSubject('\u200B\u200C\u200D\u2060\uFEFF\t Spring  offer \u0000\n')).toBe('Spring  offer');
    expect(cleanTaskSubject('a\u200Bb')).toBe('a\u200Bb');
  });

  test('e-mail format', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.org', "o'brien@x.ie"])
      expect(isValidEmail(ok)).toBe(true);
    for (const bad of ['bob@@x', 'a@b', '@b.co', 'a b@c.de', 'a..b@c.de', '.a@c.de', 'a@-c.de', 'a@c.de.']) {
      expect(isValidEmail(bad)).toBe(false);
    }
  });

  test('charCount counts code points', () => {
    expect(charCount('😀a')).toBe(2);
  });
});

describe('phone normaliser', () => {
  test.each([
    ['+1 (415) 555-0123', '+14155550123'],
    ['0049 30 1234567', '+49301234567'],
    ['44.20.7946.0000', '+442079460000'],
    ['+33 6 12 34 56 78', '+33612345678'],
    [14155550123, '+14155550123'],
    ['  +1202555000012 ', '+1202555000012'],
    ['(+1) 555 123 4567', '+15551234567'],
    [4930123456, '+4930123456'],
    ['5511987654321', '+5511987654321'],
  ])('%p -> %p', (input, expected) => {
    expect(normalizePhone(input)).toEqual({ ok: true, phone: expected });
  });

  test.each([
    ['', 'empty'],
    [null, 'empty'],
    ['0612345678', 'add the country code'],
    ['(555) 123-4567', 'add the country code'],
    ['555 123 4567', 'add the country code'],
    [5551234567, 'add the country code'],
    ['2125550123', 'add the country code'],
    ['+1 415 CALL NOW', 'contains letters'],
    ['12345', 'too short'],
    ['+1234567890123456', 'too long'],
    [1.5, 'not a whole number'],
    [Number('12345678901234567890'), 'too long to be kept as a number'],
    ['+1-415#555', 'contains characters'],
  ])('%p is invalid (%s)', (input, reason) => {
    const result = normalizePhone(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(reason);
  });
});
