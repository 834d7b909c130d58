// zod/mini schemas of the outreach service's e-mail endpoints (docs/services.md):
// sends, tasks and mails. Same rules as outreach-schemas.ts: answers strict where a workflow relies on a
// field, requests checked against every limit of the spec before sending. The one-line texts of a send
// (subject, nickname, task_subject) are cleaned here, where every request body is built (cleanLine): control
// characters are removed, never refused, and a nickname is cut to NICKNAME_MAX characters.
import * as z from 'zod/mini';
import {
  cleanLine,
  cleanNickname,
  ids,
  int,
  LIMITS,
  maxChars,
  notBlank,
  optionalText,
  optText,
  page,
  pageSize,
  text,
} from './schema-parts';
import { type InputOf, lazySchema, type OutputOf } from '../transport';
import { count } from '../../platform';

const TASK_STATUSES = ['pending', 'requested', 'completed', 'partial', 'failed'] as const;
const MAIL_STATUSES = ['pending', 'requested', 'sent', 'failed'] as const;
const BODY_FORMATS = ['text', 'html'] as const;

const TaskStatusSchema = lazySchema(() => z.enum(TASK_STATUSES));
const MailStatusSchema = lazySchema(() => z.enum(MAIL_STATUSES));
const BodyFormatSchema = lazySchema(() => z.enum(BODY_FORMATS));

// ---------------------------------------------------------------------------------------------------------
// Answers

/** 2.6 e-mail task (list element) */
const TaskSchema = lazySchema(() =>
  z.object({
    taskId: int(),
    totalCount: int(),
    status: TaskStatusSchema(),
    sentCount: int(),
    failedCount: int(),
    openedCount: int(),
    taskSubject: optText(),
    createdAt: z.string(),
    completedAt: optText(),
  }),
);
export type Task = OutputOf<typeof TaskSchema>;

/** 2.7 mail record */
const MailRecordSchema = lazySchema(() =>
  z.object({
    mailId: int(),
    taskId: int(),
    recipientEmail: z.string(),
    recipientNickname: optText(),
    subject: z.string(),
    status: MailStatusSchema(),
    sentAt: optText(),
    /** Non-null: the delivery provider confirmed delivery. */
    callbackReceivedAt: optText(),
    failureReason: optText(),
  }),
);
export type MailRecord = OutputOf<typeof MailRecordSchema>;

/** 4.12 mail detail */
export const MailDetailSchema = lazySchema(() =>
  z.extend(MailRecordSchema(), {
    content: z.string(),
    bodyFormat: BodyFormatSchema(),
  }),
);
export type MailDetail = OutputOf<typeof MailDetailSchema>;

/** 4.9 task list */
export const TaskListSchema = lazySchema(() =>
  z.object({
    data: z.array(TaskSchema()),
    total: int(),
    page: int(),
    page_size: int(),
  }),
);
export type TaskList = OutputOf<typeof TaskListSchema>;

/** 4.11 mail list */
export const MailListSchema = lazySchema(() =>
  z.object({
    data: z.array(MailRecordSchema()),
    total: int(),
    page: int(),
    page_size: int(),
  }),
);
export type MailList = OutputOf<typeof MailListSchema>;

/** 4.8 personalized send answer (201) */
export const SendPersonalizedResponseSchema = lazySchema(() =>
  z.object({
    total: int(),
    tasks: z.array(z.object({ task_id: int(), mail_id: int(), email: z.string() })),
  }),
);
export type SendPersonalizedResponse = OutputOf<typeof SendPersonalizedResponseSchema>;

// ---------------------------------------------------------------------------------------------------------
// Requests

/** Leading/trailing characters the service strips from task_subject: whitespace, control characters (Cc)
 *  and invisible format characters (Cf: U+200B-U+200D, U+2060, U+FEFF, ...). Built on first use: V8 checks
 *  a \p{…} literal when it parses the file, about 0.1 ms at every evaluation of the bundle. */
let edgeJunk: RegExp | undefined;

/** task_subject as the service stores it (4.7). What the add-on sends is already cleaned further (cleanLine:
 *  no control character anywhere), so this changes nothing of it; kept to state the service's rule. */
export function cleanTaskSubject(subject: string): string {
  edgeJunk ??= new RegExp(String.raw`^[\s\p{Cc}\p{Cf}]+|[\s\p{Cc}\p{Cf}]+$`, 'gu');
  return subject.replace(edgeJunk, '');
}

/** A practical e-mail check: one @, a dotted domain of letters, digits and hyphens, no spaces. */
const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}(?<!\.)@(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

const email = () =>
  text('e-mail address').check(
    z.overwrite((value: string) => value.trim()),
    z.minLength(1, 'e-mail address is empty'),
    z.maxLength(254, 'e-mail address is not valid'),
    z.regex(EMAIL_PATTERN, 'e-mail address is not valid'),
  );

const subject = () =>
  text('subject').check(
    z.overwrite(cleanLine),
    notBlank('subject is empty'),
    maxChars(LIMITS.subjectMax, `subject is longer than ${LIMITS.subjectMax} characters`),
  );

const content = (what: string) =>
  text(what).check(
    notBlank(`${what} is empty`),
    maxChars(LIMITS.contentMax, `${what} is longer than ${LIMITS.contentMax} characters`),
  );

const bodyFormat = () => z.enum(BODY_FORMATS, { error: 'body_format must be text or html' });

const taskSubject = () =>
  z.optional(
    text('task_subject').check(
      z.overwrite(cleanLine),
      maxChars(LIMITS.taskSubjectMax, `task_subject is longer than ${LIMITS.taskSubjectMax} characters`),
    ),
  );

/** Cleaned and cut (never refused); one left empty is not sent. */
const nickname = () =>
  z.optional(
    z.pipe(
      text('nickname'),
      z.transform((value: string) => cleanNickname(value) || undefined),
    ),
  );

const PersonalizedEmailSchema = lazySchema(() =>
  z.strictObject({
    content: content('content'),
    body_format: bodyFormat(),
    email: email(),
    subject: subject(),
    nickname: nickname(),
  }),
);
export type PersonalizedEmail = InputOf<typeof PersonalizedEmailSchema>;

/** 4.8 personalized send request */
export const SendPersonalizedRequestSchema = lazySchema(() =>
  z.strictObject({
    task_subject: taskSubject(),
    emails: z
      .array(PersonalizedEmailSchema(), { error: 'emails must be a list' })
      .check(
        z.minLength(1, 'Add at least one e-mail'),
        z.maxLength(LIMITS.recipientsMax, `At most ${count(LIMITS.recipientsMax, 'e-mail')} per send`),
      ),
  }),
);
export type SendPersonalizedRequest = InputOf<typeof SendPersonalizedRequestSchema>;

/**
 * 4.9 task list query (lists are joined with commas on the wire). The add-on asks by ids or by the tag in
 * task_subject; the service's other filters (subject, statuses, recipient, dates) are not used here.
 */
export const TaskListQuerySchema = lazySchema(() =>
  z.strictObject({
    task_ids: ids('task_ids'),
    task_subject: optionalText('task_subject'),
    page: page(),
    page_size: pageSize('page_size'),
    sort_by: z.optional(
      z.enum(['created_at', 'task_id'], { error: 'sort_by must be created_at or task_id' }),
    ),
    sort_order: z.optional(z.enum(['asc', 'desc'], { error: 'sort_order must be asc or desc' })),
  }),
);
export type TaskListQuery = InputOf<typeof TaskListQuerySchema>;

/** 4.11 mail list query: by task or mail ids (the service's other filters are not used here). */
export const MailListQuerySchema = lazySchema(() =>
  z.strictObject({
    task_ids: ids('task_ids'),
    mail_ids: ids('mail_ids'),
    page: page(),
    page_size: pageSize('page_size'),
    sort_by: z.optional(
      z.enum(['sent_at', 'callback_received_at', 'mail_id', 'status'], {
        error: 'sort_by must be sent_at, callback_received_at, mail_id or status',
      }),
    ),
    sort_order: z.optional(z.enum(['asc', 'desc'], { error: 'sort_order must be asc or desc' })),
  }),
);
export type MailListQuery = InputOf<typeof MailListQuerySchema>;
