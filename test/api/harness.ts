// Entry points of the API test bundle (test-output/api-harness/Code.js), built by rollup.api-harness.mjs
// with the same plugins as dist/Code.js: thin functions over the real clients, run in the Apps Script
// emulator against the sandbox. Each answers plain JSON: {ok: true, value} or {ok: false, error}.
import { ApiError, isForLater } from '../../src/api/errors';
import type { OutreachClient } from '../../src/api/outreach/outreach-client';
import type {
  MailListQuery,
  SendPersonalizedRequest,
  TaskListQuery,
} from '../../src/api/outreach/email-schemas';
import type { SearchRequest } from '../../src/api/outreach/outreach-schemas';
import type { PhoneClient } from '../../src/api/phone/phone-client';
import { outreachClient, phoneClient } from '../../src/features/clients';
import { saveSettings, type Settings } from '../../src/platform/settings';

export interface Connection {
  outreachApiKey?: string;
  outreachBaseUrl?: string;
  phoneApiKey?: string;
  phoneBaseUrl?: string;
  /** Deadline relative to the start of the execution. */
  deadlineInMs?: number;
  /** Use the user's saved settings instead. */
  fromSettings?: boolean;
}

type Result = { ok: true; value: unknown } | { ok: false; error: unknown };

function run(work: () => unknown): Result {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: error.toJSON() };
    throw error;
  }
}

/** The clients as the add-on builds them: from the user's settings, or from these ones. */
function settingsOf(c: Connection): Settings | undefined {
  if (c.fromSettings) return undefined;
  return {
    outreachApiKey: c.outreachApiKey ?? '',
    outreachBaseUrl: c.outreachBaseUrl ?? '',
    phoneApiKey: c.phoneApiKey ?? '',
    phoneBaseUrl: c.phoneBaseUrl ?? '',
    unsubscribeAddress: '',
  };
}

function deadlineOf(c: Connection): number | undefined {
  return c.deadlineInMs === undefined ? undefined : Date.now() + c.deadlineInMs;
}

function outreach(c: Connection): OutreachClient {
  return outreachClient({ deadlineMs: deadlineOf(c) }, settingsOf(c));
}

function phone(c: Connection): PhoneClient {
  return phoneClient({ deadlineMs: deadlineOf(c) }, settingsOf(c));
}

export function apiSaveSettings(patch: Record<string, string>) {
  return run(() => saveSettings(patch));
}

export function apiBalance(c: Connection) {
  return run(() => outreach(c).balance());
}

/** n balance calls in one execution: how many succeeded, the errors, and the virtual time spent. */
export function apiBalanceMany(c: Connection, n: number) {
  const started = Date.now();
  const client = outreach(c);
  const errors: unknown[] = [];
  let ok = 0;
  for (let i = 0; i < n; i++) {
    try {
      client.balance();
      ok++;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      errors.push(error.toJSON());
      if (isForLater(error)) break;
    }
  }
  return { ok, errors, elapsedMs: Date.now() - started };
}

export function apiSearch(c: Connection, request: SearchRequest) {
  return run(() => outreach(c).search(request));
}

export function apiUnlock(c: Connection, domain: string, countryCode: string) {
  return run(() => outreach(c).unlock(domain, countryCode));
}

export function apiProfile(c: Connection, companyHashId: string) {
  return run(() => outreach(c).profile(companyHashId));
}

export function apiProfileEmails(
  c: Connection,
  companyHashId: string,
  options: { keyword?: string; page?: number; pageSize?: number },
) {
  return run(() => outreach(c).profileEmails(companyHashId, options));
}

export function apiProfilesWithEmails(c: Connection, companyHashIds: string[]) {
  return run(() =>
    outreach(c)
      .profilesWithEmails(companyHashIds)
      .map((r) => (r.ok ? r : { companyHashId: r.companyHashId, ok: false, error: r.error.toJSON() })),
  );
}

export function apiSendPersonalized(c: Connection, request: SendPersonalizedRequest) {
  return run(() => outreach(c).sendPersonalized(request));
}

export function apiListTasks(c: Connection, query: TaskListQuery) {
  return run(() => outreach(c).listTasks(query));
}

export function apiListMails(c: Connection, query: MailListQuery) {
  return run(() => outreach(c).listMails(query));
}

export function apiGetMail(c: Connection, mailId: number) {
  return run(() => outreach(c).getMail(mailId));
}

export function phoneCredits(c: Connection) {
  return run(() => phone(c).credits());
}

export function phoneCheck(c: Connection, number: unknown) {
  return run(() => phone(c).check(number));
}

export function phoneCheckMany(c: Connection, numbers: unknown[]) {
  return run(() => {
    const out = phone(c).checkMany(numbers);
    return {
      results: out.results.map((r) => ({ ...r, error: r.error?.toJSON() })),
      unchecked: out.unchecked,
      stopped: out.stopped?.toJSON(),
    };
  });
}
