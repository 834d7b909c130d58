// The mails of a send's batch: each row's mail rendered from the template, chunk by chunk, while the
// batch's payload stays within what one fetchAll should carry.
import { type PersonalizedEmail, cleanNickname } from '../../api';
import { utf8Bytes } from '../../platform';
import { type ListRow } from '../../sheets';
import { renderMail } from './mail-template';
import type { StoredTemplate } from './mail-templates';

/**
 * Most payload one batch posts (its mails' UTF-8 bytes): Apps Script takes 50 MB per UrlFetch call, and a
 * batch is rendered in memory before it goes. Ordinary mails fill 60 chunks long before this.
 */
const MAX_BATCH_BYTES = 20 * 1024 * 1024;
/** A mail's address, names and JSON around its subject and content, in bytes, at most. */
const MAIL_OVERHEAD = 512;

/**
 * Each chunk's mails, rendered from its own template (`templates[i]`: a subject test's chunks differ) chunk by chunk while the batch's payload stays within MAX_BATCH_BYTES (at
 * least one chunk): 60 chunks of 50,000-character mails would be far more than a fetchAll may carry or an
 * execution hold. The rows of the chunks left out stay queued for the next batch.
 */
export function batchMails(
  candidates: ListRow[][],
  templates: StoredTemplate[],
  unsubscribe: string,
): PersonalizedEmail[][] {
  const emails: PersonalizedEmail[][] = [];
  let bytes = 0;
  for (const [i, chunkRows] of candidates.entries()) {
    const mails = chunkRows.map((row) => mailOf(templates[i], row, unsubscribe));
    const more = mails.reduce((n, m) => n + utf8Bytes(m.content) + utf8Bytes(m.subject) + MAIL_OVERHEAD, 0);
    if (emails.length > 0 && bytes + more > MAX_BATCH_BYTES) break;
    emails.push(mails);
    bytes += more;
  }
  return emails;
}

function mailOf(template: StoredTemplate, row: ListRow, unsubscribe: string): PersonalizedEmail {
  const mail = renderMail(template, row.display, unsubscribe);
  const nickname = cleanNickname(row.nickname); // as the request would send it (a long cell counts as sent)
  return {
    email: row.email,
    subject: mail.subject,
    content: mail.body,
    body_format: template.bodyFormat,
    ...(nickname ? { nickname } : {}),
  };
}
