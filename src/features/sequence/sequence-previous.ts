// Before a step goes out, the previous mails of its rows are read from the service (free, 100 ids a
// request, sent together): a failure the service already knows is never followed up, even when no refresh
// has written it on the sheets yet. The ids come from the views (the row, the follow-ups sheet), which any
// editor can type: a mail is taken only when the service says it went to that row's address. Where a step goes
// only to rows that did not open the previous mail, the tasks of those mails are read too (100 a request): a
// task that holds that one mail tells whether it was opened; a task that holds many cannot, and its rows are
// sent (Compose says why the option may not apply).
import { addressKey } from '../../sheets';
import { type OutreachClient } from '../../api';
import { splitEvery } from '../../platform';
import { type FollowUp } from '../outbox';

const IDS_PER_REQUEST = 100;

interface PreviousMail {
  key: string;
  step: number;
  mailId: number;
  taskId: number;
}

/** Recipient → why their sequence stops now: the previous mail failed, or was opened where that stops it. */
export function previousMails(
  client: OutreachClient,
  followUps: FollowUp[],
  due: PreviousMail[],
): Map<string, 'failed' | 'opened'> {
  const stopped = new Map<string, 'failed' | 'opened'>();
  const byMail = new Map(due.filter((d) => d.mailId > 0).map((d) => [d.mailId, d]));
  const queries = splitEvery([...byMail.keys()], IDS_PER_REQUEST).map((ids) => ({
    mail_ids: ids,
    page_size: IDS_PER_REQUEST,
  }));
  const theirs = new Set<number>();
  for (const page of client.listMailsAll(queries))
    for (const mail of page.data) {
      const d = byMail.get(mail.mailId);
      if (!d || addressKey(mail.recipientEmail) !== d.key) continue; // an id typed onto another row
      theirs.add(d.mailId);
      if (mail.status === 'failed') stopped.set(d.key, 'failed');
    }
  const askOpens = due.filter(
    (d) => followUps[d.step - 1].unopenedOnly && theirs.has(d.mailId) && !stopped.has(d.key),
  );
  if (askOpens.length === 0) return stopped;
  const taskIds = [...new Set(askOpens.map((d) => d.taskId).filter((id) => id > 0))];
  const opened = new Set<number>();
  const taskQueries = splitEvery(taskIds, IDS_PER_REQUEST).map((ids) => ({
    task_ids: ids,
    page_size: IDS_PER_REQUEST,
  }));
  for (const page of client.listTasksAll(taskQueries))
    for (const task of page.data) if (task.totalCount === 1 && task.openedCount > 0) opened.add(task.taskId);
  for (const d of askOpens) if (opened.has(d.taskId)) stopped.set(d.key, 'opened');
  return stopped;
}
