// zod/mini schemas of the outreach service (spec/outreach-api.md), for every request the add-on sends and
// every answer it reads. Answers: identifiers, counts, states and the fields a workflow needs are strict;
// descriptive text the spec does not promise (the profile: "which fields are always present: not shown";
// nullable timestamps of tasks and mails) is tolerated when absent or null. Unknown fields are stripped, so
// nothing the spec does not list (a website in a search row, say) reaches a feature.
// Requests: every limit of the spec is checked before sending, with a message that says what to fix.
import * as z from 'zod/mini';

// ---------------------------------------------------------------------------------------------------------
// Shared pieces

const int = () => z.int();
const optText = () => z.nullish(z.string());
/** An array that may be absent or null in an answer: read as []. */
function listOrEmpty<T extends z.ZodMiniType>(item: T) {
  return z.pipe(
    z.nullish(z.array(item)),
    z.transform((value: z.output<T>[] | null | undefined) => value ?? []),
  );
}

export const TASK_STATUSES = ['pending', 'requested', 'completed', 'partial', 'failed'] as const;
export const MAIL_STATUSES = ['pending', 'requested', 'sent', 'failed'] as const;
export const BODY_FORMATS = ['text', 'html'] as const;

export const TaskStatusSchema = z.enum(TASK_STATUSES);
export const MailStatusSchema = z.enum(MAIL_STATUSES);
export const BodyFormatSchema = z.enum(BODY_FORMATS);
export type TaskStatus = z.output<typeof TaskStatusSchema>;
export type MailStatus = z.output<typeof MailStatusSchema>;
export type BodyFormat = z.output<typeof BodyFormatSchema>;

// ---------------------------------------------------------------------------------------------------------
// Answers

/** 2.1 GET /api/v1/credit/balance */
export const BalanceSchema = z.object({
  userId: z.string(),
  monthlyPoints: int(),
  monthlyEdm: int(),
  monthlyExpiresAt: optText(),
  addonPoints: int(),
  addonEdm: int(),
});
export type Balance = z.output<typeof BalanceSchema>;

/**
 * 2.2 A search row. `id` is NOT a companyHashId. `domain` is the unlock key only: never show it, nor any
 * website or link derived from it.
 */
export const SearchRowSchema = z.object({
  id: z.string(),
  company_name: z.string(),
  company_type: listOrEmpty(z.string()),
  industry: listOrEmpty(z.string()),
  main_products: listOrEmpty(z.string()),
  country_code: z.string(),
  founding_time: optText(),
  employees_count: optText(),
  email_count: z.nullish(int()),
  whatsapp_count: z.nullish(int()),
  company_profile: optText(),
  domain: z.string(),
});
export type SearchRow = z.output<typeof SearchRowSchema>;

/** 4.2 search answer. Row ids are unique and not empty: the company index maps a row id to its domain. */
export const SearchResponseSchema = z.object({
  total: int(),
  list: z.array(SearchRowSchema).check(
    z.refine(
      (list: { id: string }[]) =>
        list.every((row) => row.id !== '') && new Set(list.map((row) => row.id)).size === list.length,
      {
        message: 'a row id is empty or repeated',
      },
    ),
  ),
});
export type SearchResponse = z.output<typeof SearchResponseSchema>;

/** 2.3 unlock answer: the only valid source of a companyHashId. */
export const UnlockResultSchema = z.object({
  companyHashId: z.string().check(z.minLength(1)),
  companyName: optText(),
  charged: z.boolean(),
  alreadyViewed: z.boolean(),
});
export type UnlockResult = z.output<typeof UnlockResultSchema>;

export const TradeDataSchema = z.object({
  hsCode: optText(),
  value: z.nullish(z.number()),
  date: optText(),
  /** `import` occurs; other values are not listed by the spec. */
  direction: optText(),
});
export type TradeData = z.output<typeof TradeDataSchema>;

/** 2.4 company profile: every field but companyHashId may be absent; tradeData reads as [] when absent. */
export const CompanyProfileSchema = z.object({
  companyHashId: z.string(),
  name: optText(),
  country: optText(),
  industry: optText(),
  employeeCount: z.nullish(z.number()),
  website: optText(),
  description: optText(),
  tradeData: listOrEmpty(TradeDataSchema),
});
export type CompanyProfile = z.output<typeof CompanyProfileSchema>;

/** 2.5 contact e-mail entry */
export const ContactEmailSchema = z.object({
  name: optText(),
  title: optText(),
  email: z.string(),
  linkedin: optText(),
});
export type ContactEmail = z.output<typeof ContactEmailSchema>;

/** 4.5 profileEmails answer */
export const ProfileEmailsPageSchema = z.object({
  emails: z.array(ContactEmailSchema),
  total: int(),
  page: int(),
});
export type ProfileEmailsPage = z.output<typeof ProfileEmailsPageSchema>;

/** 2.6 e-mail task (list element) */
export const TaskSchema = z.object({
  taskId: int(),
  totalCount: int(),
  status: TaskStatusSchema,
  sentCount: int(),
  failedCount: int(),
  openedCount: int(),
  taskSubject: optText(),
  createdAt: z.string(),
  completedAt: optText(),
});
export type Task = z.output<typeof TaskSchema>;

/** 2.7 mail record */
export const MailRecordSchema = z.object({
  mailId: int(),
  taskId: int(),
  recipientEmail: z.string(),
  recipientNickname: optText(),
  subject: z.string(),
  status: MailStatusSchema,
  sentAt: optText(),
  /** Non-null: the delivery provider confirmed delivery. */
  callbackReceivedAt: optText(),
  failureReason: optText(),
});
export type MailRecord = z.output<typeof MailRecordSchema>;

/** 4.10 task detail */
export const TaskDetailSchema = z.extend(TaskSchema, {
  content: optText(),
  bodyFormat: BodyFormatSchema,
  mails: z.array(MailRecordSchema),
});
export type TaskDetail = z.output<typeof TaskDetailSchema>;

/** 4.12 mail detail */
export const MailDetailSchema = z.extend(MailRecordSchema, {
  content: z.string(),
  bodyFormat: BodyFormatSchema,
});
export type MailDetail = z.output<typeof MailDetailSchema>;

/** 4.9 task list */
export const TaskListSchema = z.object({
  data: z.array(TaskSchema),
  total: int(),
  page: int(),
  page_size: int(),
});
export type TaskList = z.output<typeof TaskListSchema>;

/** 4.11 mail list */
export const MailListSchema = z.object({
  data: z.array(MailRecordSchema),
  total: int(),
  page: int(),
  page_size: int(),
});
export type MailList = z.output<typeof MailListSchema>;

/** 4.7 batch send answer (201) */
export const SendBatchResponseSchema = z.object({
  task_id: int(),
  total: int(),
  status: z.string(),
});
export type SendBatchResponse = z.output<typeof SendBatchResponseSchema>;

/** 4.8 personalized send answer (201) */
export const SendPersonalizedResponseSchema = z.object({
  total: int(),
  tasks: z.array(z.object({ task_id: int(), mail_id: int(), email: z.string() })),
});
export type SendPersonalizedResponse = z.output<typeof SendPersonalizedResponseSchema>;

/** 7 problem record, as read by the clients (lenient: see errors.parseProblem). */
export const ProblemSchema = z.object({
  type: z.optional(z.string()),
  title: z.optional(z.string()),
  status: z.optional(z.number()),
  detail: z.optional(z.string()),
  instance: z.optional(z.string()),
  /** 410 only */
  code: z.optional(z.string()),
  /** 410 only */
  replacement: z.optional(z.string()),
});
export type ProblemRecord = z.output<typeof ProblemSchema>;

/** 4.6 the retired contact search answers 410 with this problem. */
export const RetiredContactSearchSchema = z.extend(ProblemSchema, {
  code: z.literal('contact_search_retired'),
  replacement: z.string(),
});

// ---------------------------------------------------------------------------------------------------------
// Requests

/** Leading/trailing characters the service strips from task_subject: whitespace, control characters (Cc)
 *  and invisible format characters (Cf: U+200B-U+200D, U+2060, U+FEFF, ...). */
const EDGE_JUNK = /^[\s\p{Cc}\p{Cf}]+|[\s\p{Cc}\p{Cf}]+$/gu;

/** task_subject as the service stores it (4.7): the 255-character limit applies to this. */
export function cleanTaskSubject(subject: string): string {
  return subject.replace(EDGE_JUNK, '');
}

/** A practical e-mail check: one @, a dotted domain of letters, digits and hyphens, no spaces. */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}(?<!\.)@(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

export const COUNTRY_PATTERN = /^[A-Z]{2}$/;

/** ISO 3166-1 alpha-2 codes (officially assigned). */
export const ISO_COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY ' +
    'BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK ' +
    'FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR ' +
    'IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ' +
    'ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
    'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF ' +
    'TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF YE YT ZA ZM ZW'
  ).split(' '),
);

/** Length in characters as the service counts them (Unicode code points). */
export function charCount(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

const maxChars = (max: number, message: string) =>
  z.refine<string>((value) => typeof value !== 'string' || charCount(value) <= max, { message });
const notBlank = (message: string) =>
  z.refine<string>((value) => typeof value !== 'string' || value.trim() !== '', { message });
export const VARIABLE_NAME_PATTERN = /^\w+$/;

export const LIMITS = {
  searchSizeMax: 50,
  recipientsMax: 100,
  contentMax: 50000,
  subjectMax: 200,
  taskSubjectMax: 255,
  pageSizeMax: 100,
} as const;

const text = (what: string) => z.string({ error: `${what} must be text` });

const countryCode = (what: string) =>
  text(what).check(
    z.overwrite((value: string) => value.trim().toUpperCase()),
    z.refine((value: string) => ISO_COUNTRY_CODES.has(value), {
      message: `${what}: use a two-letter ISO country code such as US or DE`,
    }),
  );

const keywords = (what: string) =>
  z.pipe(
    z.array(text(what).check(z.overwrite((value: string) => value.trim())), {
      error: `${what} must be a list of words`,
    }),
    z.transform((list: string[]) => list.filter((word) => word !== '')),
  );

const SEARCH_FIELDS =
  'productKeywords, industryKeywords, companyTypeKeywords, includeCountry, excludeCountry, withEmails, crossFieldOperator, from, size';

/** 4.2 search request. Only the fields of the spec: anything else (employees, website, limit...) is refused. */
export const SearchRequestSchema = z
  .strictObject(
    {
      companyTypeKeywords: z.optional(keywords('Company-type keywords')),
      productKeywords: z.optional(keywords('Product keywords')),
      industryKeywords: z.optional(keywords('Industry keywords')),
      includeCountry: z.optional(z.array(countryCode('Country'), { error: 'includeCountry must be a list' })),
      excludeCountry: z.optional(z.array(countryCode('Country'), { error: 'excludeCountry must be a list' })),
      withEmails: z.optional(z.union([z.literal(0), z.literal(1)], { error: 'withEmails must be 0 or 1' })),
      crossFieldOperator: z.optional(
        z.string().check(
          z.overwrite((value: string) => value.trim().toUpperCase()),
          z.regex(/^(AND|OR)$/, 'crossFieldOperator must be AND or OR'),
        ),
      ),
      from: z.optional(
        z.int({ error: 'from must be a whole number' }).check(z.minimum(0, 'from must be 0 or more')),
      ),
      size: z.optional(
        z
          .int({ error: 'size must be a whole number' })
          .check(
            z.minimum(1, 'size must be 1 to 50'),
            z.maximum(LIMITS.searchSizeMax, 'size must be 1 to 50'),
          ),
      ),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `search accepts only ${SEARCH_FIELDS}`
          : 'The search request must be an object of keywords and filters',
    },
  )
  .check(
    z.refine(
      (request: {
        companyTypeKeywords?: string[];
        productKeywords?: string[];
        industryKeywords?: string[];
      }) =>
        [request.companyTypeKeywords, request.productKeywords, request.industryKeywords].some(
          (list) => Array.isArray(list) && list.length > 0,
        ),
      { message: 'Enter at least one product, industry or company-type keyword', path: ['productKeywords'] },
    ),
  );
export type SearchRequest = z.input<typeof SearchRequestSchema>;
export type SearchRequestBody = z.output<typeof SearchRequestSchema>;
export const SEARCH_SUPPORTED_FIELDS = SEARCH_FIELDS.split(', ');

/** 4.3 unlock request */
export const UnlockRequestSchema = z.object({
  domain: text('domain').check(
    z.overwrite((value: string) => value.trim()),
    z.minLength(1, 'domain is required (take it from a search row)'),
  ),
  countryCode: countryCode('countryCode'),
});
export type UnlockRequest = z.output<typeof UnlockRequestSchema>;

const email = text('e-mail address').check(
  z.overwrite((value: string) => value.trim()),
  z.minLength(1, 'e-mail address is empty'),
  z.maxLength(254, 'e-mail address is not valid'),
  z.regex(EMAIL_PATTERN, 'e-mail address is not valid'),
);

const subject = text('subject').check(
  notBlank('subject is empty'),
  maxChars(LIMITS.subjectMax, `subject is longer than ${LIMITS.subjectMax} characters`),
);

const content = (what: string) =>
  text(what).check(
    notBlank(`${what} is empty`),
    maxChars(LIMITS.contentMax, `${what} is longer than ${LIMITS.contentMax} characters`),
  );

const bodyFormat = z.enum(BODY_FORMATS, { error: 'body_format must be text or html' });

const variables = z.record(
  z
    .string()
    .check(
      z.regex(VARIABLE_NAME_PATTERN, 'a variable name may contain only letters, digits and _ (no braces)'),
    ),
  z.string({ error: 'the value must be text' }),
  {
    error: (issue) =>
      issue.code === 'invalid_type' ? 'variables must be an object of names and text values' : undefined,
  },
);

const taskSubject = z.optional(
  text('task_subject').check(
    z.overwrite(cleanTaskSubject),
    maxChars(LIMITS.taskSubjectMax, `task_subject is longer than ${LIMITS.taskSubjectMax} characters`),
  ),
);

const nickname = z.optional(text('nickname'));

export const RecipientSchema = z.strictObject({
  email,
  subject,
  nickname,
  variables: z.optional(variables),
});
export type Recipient = z.input<typeof RecipientSchema>;

/** 4.7 batch send request */
export const SendBatchRequestSchema = z.strictObject({
  content: content('content'),
  body_format: bodyFormat,
  task_subject: taskSubject,
  recipients: z
    .array(RecipientSchema, { error: 'recipients must be a list' })
    .check(
      z.minLength(1, 'Add at least one recipient'),
      z.maxLength(LIMITS.recipientsMax, `At most ${LIMITS.recipientsMax} recipients per send`),
    ),
});
export type SendBatchRequest = z.input<typeof SendBatchRequestSchema>;

export const PersonalizedEmailSchema = z.strictObject({
  content: content('content'),
  body_format: bodyFormat,
  email,
  subject,
  nickname,
  variables: z.optional(variables),
});
export type PersonalizedEmail = z.input<typeof PersonalizedEmailSchema>;

/** 4.8 personalized send request */
export const SendPersonalizedRequestSchema = z.strictObject({
  task_subject: taskSubject,
  emails: z
    .array(PersonalizedEmailSchema, { error: 'emails must be a list' })
    .check(
      z.minLength(1, 'Add at least one e-mail'),
      z.maxLength(LIMITS.recipientsMax, `At most ${LIMITS.recipientsMax} e-mails per send`),
    ),
});
export type SendPersonalizedRequest = z.input<typeof SendPersonalizedRequestSchema>;

const page = z.optional(
  z.int({ error: 'page must be a whole number' }).check(z.minimum(1, 'page must be 1 or more')),
);
const pageSize = (name: string) =>
  z.optional(
    z
      .int({ error: `${name} must be a whole number` })
      .check(
        z.minimum(1, `${name} must be 1 to ${LIMITS.pageSizeMax}`),
        z.maximum(LIMITS.pageSizeMax, `${name} must be 1 to ${LIMITS.pageSizeMax}`),
      ),
  );
const ids = (name: string) =>
  z.optional(
    z.array(
      z.int({ error: `${name} must be whole numbers` }).check(z.minimum(1, `${name} must be positive`)),
      {
        error: `${name} must be a list of numbers`,
      },
    ),
  );
const isoTime = (name: string) =>
  z.optional(
    text(name).check(
      z.refine((value: string) => /^\d{4}-\d{2}-\d{2}/.test(value) && !isNaN(Date.parse(value)), {
        message: `${name} must be an ISO 8601 date-time such as 2026-01-31T00:00:00Z`,
      }),
    ),
  );
const optionalText = (name: string) => z.optional(text(name));

/** 4.5 profileEmails query */
export const ProfileEmailsQuerySchema = z.strictObject({
  keyword: optionalText('keyword'),
  page,
  pageSize: pageSize('pageSize'),
});
export type ProfileEmailsQuery = z.input<typeof ProfileEmailsQuerySchema>;

/** 4.9 task list query (lists are joined with commas on the wire). */
export const TaskListQuerySchema = z.strictObject({
  task_ids: ids('task_ids'),
  subject: optionalText('subject'),
  task_subject: optionalText('task_subject'),
  statuses: z.optional(
    z.array(z.enum(TASK_STATUSES, { error: `statuses must be ${TASK_STATUSES.join(', ')}` })),
  ),
  /** Puts an e-mail address in the URL: prefer task_ids. */
  recipient_email: optionalText('recipient_email'),
  recipient_nickname: optionalText('recipient_nickname'),
  created_from: isoTime('created_from'),
  created_to: isoTime('created_to'),
  page,
  page_size: pageSize('page_size'),
  sort_by: z.optional(z.enum(['created_at', 'task_id'], { error: 'sort_by must be created_at or task_id' })),
  sort_order: z.optional(z.enum(['asc', 'desc'], { error: 'sort_order must be asc or desc' })),
});
export type TaskListQuery = z.input<typeof TaskListQuerySchema>;

/** 4.11 mail list query */
export const MailListQuerySchema = z.strictObject({
  task_ids: ids('task_ids'),
  mail_ids: ids('mail_ids'),
  subject: optionalText('subject'),
  statuses: z.optional(
    z.array(z.enum(MAIL_STATUSES, { error: `statuses must be ${MAIL_STATUSES.join(', ')}` })),
  ),
  /** Puts an e-mail address in the URL: prefer task_ids or mail_ids. */
  recipient_email: optionalText('recipient_email'),
  recipient_nickname: optionalText('recipient_nickname'),
  sent_from: isoTime('sent_from'),
  sent_to: isoTime('sent_to'),
  received_from: isoTime('received_from'),
  received_to: isoTime('received_to'),
  page,
  page_size: pageSize('page_size'),
  sort_by: z.optional(
    z.enum(['sent_at', 'callback_received_at', 'mail_id', 'status'], {
      error: 'sort_by must be sent_at, callback_received_at, mail_id or status',
    }),
  ),
  sort_order: z.optional(z.enum(['asc', 'desc'], { error: 'sort_order must be asc or desc' })),
});
export type MailListQuery = z.input<typeof MailListQuerySchema>;
