// Before a step goes out, the previous mails of its rows are read from the service (free, 100 ids a
// request, sent together): a failure the service already knows is never followed up, even when no refresh
// has written it on the sheets yet. Where a step goes only to rows that did not open the previous mail, the
// tasks of those mails are read too (100 a request): a task that holds that one mail tells whether it was
// opened; a task that holds many cannot, and its rows are sent (Compose says why the option may not apply).
import type { OutreachClient } from '../../api/outreach/outreach-client';
import type { ListRow } from '../../sheets/mailing-list';
import { splitEvery } from '../jobs/job-runner';
import type { FollowUp } from './sequence-steps';
import { SEQUENCE_TEXT } from './sequence-texts';

const IDS_PER_REQUEST = 100;

interface DueRow {
  row: ListRow;
  plan: { step: number; prev: { mailId: number; taskId: number } };
}

/** Recipient → why their sequence stops now (the previous mail failed, or was opened where that stops it). */
export function previousMails(
  client: OutreachClient,
  followUps: FollowUp[],
  due: DueRow[],
): Map<string, string> {
  const stopped = new Map<string, string>();
  const byMail = new Map(due.map((d) => [d.plan.prev.mailId, d.row.key]));
  const queries = splitEvery([...byMail.keys()], IDS_PER_REQUEST).map((ids) => ({
    mail_ids: ids,
    page_size: IDS_PER_REQUEST,
  }));
  for (const page of client.listMailsAll(queries))
    for (const mail of page.data) {
      const key = byMail.get(mail.mailId);
      if (key && mail.status === 'failed') stopped.set(key, SEQUENCE_TEXT.failed);
    }
  const askOpens = due.filter((d) => followUps[d.plan.step - 1].unopenedOnly && !stopped.has(d.row.key));
  if (askOpens.length === 0) return stopped;
  const taskIds = [...new Set(askOpens.map((d) => d.plan.prev.taskId).filter((id) => id > 0))];
  const opened = new Set<number>();
  const taskQueries = splitEvery(taskIds, IDS_PER_REQUEST).map((ids) => ({
    task_ids: ids,
    page_size: IDS_PER_REQUEST,
  }));
  for (const page of client.listTasksAll(taskQueries))
    for (const task of page.data) if (task.totalCount === 1 && task.openedCount > 0) opened.add(task.taskId);
  for (const d of askOpens) if (opened.has(d.plan.prev.taskId)) stopped.set(d.row.key, SEQUENCE_TEXT.opened);
  return stopped;
}
