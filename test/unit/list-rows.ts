// Rows of a mailing list as MailingList.readRows gives them, for the planners' unit tests.
import type { MailState } from '../../src/sheets/mail-state';
import type { ListRow } from '../../src/sheets/mailing-list';

export interface RowSpec {
  email?: string;
  /** Other cells by header (normalised here as the list does). */
  cells?: Record<string, string>;
  state?: MailState;
  mailId?: string;
  sentAt?: Date | null;
}

/** Row `rowNumber` with an address and cells; its key is the address in lower case. */
export function listRow(rowNumber: number, spec: RowSpec = {}): ListRow {
  const email = (spec.email ?? `person${rowNumber}@acme.com`).trim(); // readRows trims the address
  const display = new Map<string, string>([['e-mail', email]]);
  for (const [header, value] of Object.entries(spec.cells ?? {}))
    display.set(header.trim().toLowerCase().replace(/\s+/g, ' '), value);
  return {
    rowNumber,
    display,
    email,
    key: email.trim().toLowerCase(),
    nickname: display.get('nickname') ?? display.get('name') ?? '',
    state: spec.state ?? { kind: 'none' },
    mailId: spec.mailId ?? '',
    taskId: spec.mailId ? '77' : '',
    sentAt: spec.sentAt ?? null,
  };
}
