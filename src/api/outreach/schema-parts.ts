// Building blocks shared by the outreach schemas (outreach-schemas.ts, email-schemas.ts): answer fields that
// may be absent, request texts with the spec's limits counted as the service counts them, one-line texts
// cleaned of control characters (cleanLine), paging. Every schema part is a builder: the schemas that use
// them are built on first use (lazySchema), never at load.
import * as z from 'zod/mini';

export const int = () => z.int();
export const optText = () => z.nullish(z.string());
/** An array that may be absent or null in an answer: read as []. */
export function listOrEmpty<T extends z.ZodMiniType>(item: T) {
  return z.pipe(
    z.nullish(z.array(item)),
    z.transform((value: z.output<T>[] | null | undefined) => value ?? []),
  );
}

export const text = (what: string) => z.string({ error: `${what} must be text` });

export const optionalText = (name: string) => z.optional(text(name));

export const LIMITS = {
  searchSizeMax: 50,
  recipientsMax: 100,
  contentMax: 50000,
  subjectMax: 200,
  taskSubjectMax: 255,
  pageSizeMax: 100,
} as const;

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

/** Our own cap of a recipient's nickname (the spec sets none): a name, not a paragraph. */
export const NICKNAME_MAX = 200;

/** Control (Cc) and format (Cf) characters other than tab, CR and LF. Built on first use: V8 checks a
 *  \p{…} literal when it parses the file, at every evaluation of the bundle. */
let invisible: RegExp | undefined;
/** A run of line breaks or tabs (CR, LF, TAB, U+2028, U+2029) with the spaces around it. */
const BREAKS = /\s*[\t\n\r\u2028\u2029]\s{0,}/g; // \s{0,}: "*/" would end the comment carrying the module

/**
 * A one-line text as it may go in a request (subject, nickname, task_subject): every line break or tab
 * becomes one space, every other control or format character (Unicode Cc, Cf) is dropped, the ends are
 * trimmed. A header-like "Ann\r\nBcc: x" can then never reach the service as two lines.
 */
export function cleanLine(value: string): string {
  invisible ??= new RegExp(String.raw`(?![\t\n\r])[\p{Cc}\p{Cf}]`, 'gu');
  return value.replace(invisible, '').replace(BREAKS, ' ').trim();
}

/** The first `max` characters (code points: a surrogate pair is never cut in two). */
export function cutChars(value: string, max: number): string {
  if (value.length <= max) return value;
  let end = 0;
  for (let n = 0; n < max && end < value.length; n++) {
    const code = value.charCodeAt(end);
    const pair = code >= 0xd800 && code <= 0xdbff && end + 1 < value.length;
    const next = pair ? value.charCodeAt(end + 1) : 0;
    end += pair && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return value.slice(0, end);
}

/** A nickname as it is sent: one clean line of at most NICKNAME_MAX characters. */
export function cleanNickname(value: string): string {
  return cutChars(cleanLine(value), NICKNAME_MAX).trim();
}

export const maxChars = (max: number, message: string) =>
  z.refine<string>((value) => typeof value !== 'string' || charCount(value) <= max, { message });
export const notBlank = (message: string) =>
  z.refine<string>((value) => typeof value !== 'string' || value.trim() !== '', { message });

export const page = () =>
  z.optional(z.int({ error: 'page must be a whole number' }).check(z.minimum(1, 'page must be 1 or more')));
export const pageSize = (name: string) =>
  z.optional(
    z
      .int({ error: `${name} must be a whole number` })
      .check(
        z.minimum(1, `${name} must be 1 to ${LIMITS.pageSizeMax}`),
        z.maximum(LIMITS.pageSizeMax, `${name} must be 1 to ${LIMITS.pageSizeMax}`),
      ),
  );
export const ids = (name: string) =>
  z.optional(
    z.array(
      z.int({ error: `${name} must be whole numbers` }).check(z.minimum(1, `${name} must be positive`)),
      {
        error: `${name} must be a list of numbers`,
      },
    ),
  );
