// The profile and every contact of many companies at once (unlock fills Profiles and Contacts with it),
// through UrlFetchApp.fetchAll in batches sized to the free rate budget: first every profile and first
// page; then, for the companies that have more, the pages their `total` announces, at most PAGES_PER_WAVE
// at a time, until an empty page or `total` contacts (so an inflated total costs a few requests, never a
// hundred pages). One company's failure (a 404: not unlocked) does not fail the others. A refused key, a
// used-up quota, or no rate-budget slot before the deadline stops the run: the companies not done carry that
// error (continue later).
import { type ApiError, endsRun } from '../errors';
import { missingKeyInit } from '../error-texts';
import { type Transport, type RequestSpec } from '../transport';
import {
  type CompanyProfile,
  CompanyProfileSchema,
  type ContactEmail,
  type ProfileEmailsPage,
  ProfileEmailsPageSchema,
} from './outreach-schemas';
import { OUTREACH_PATHS } from './outreach-paths';

/** Page size used to read every contact of a company (the spec's maximum; its default is not shown). */
const PROFILE_EMAILS_PAGE_SIZE = 100;
/** Safety bound of profilesWithEmails: 100 pages of 100 contacts. */
const PROFILE_EMAILS_MAX_PAGES = 100;
/** profilesWithEmails asks for at most this many further pages of one company in one fetchAll. */
const PAGES_PER_WAVE = 4;

export interface ProfileEmailsOptions {
  keyword?: string;
  page?: number;
  pageSize?: number;
}

export type CompanyWithEmails =
  | { companyHashId: string; ok: true; profile: CompanyProfile; emails: ContactEmail[]; total: number }
  | { companyHashId: string; ok: false; error: ApiError };

interface Company {
  companyHashId: string;
  profile?: CompanyProfile;
  emails: ContactEmail[];
  total: number;
  /** Next page to read (1: the profile and the first page); undefined when done. */
  next?: number;
  error?: ApiError;
}

/** One result per id, in order. The ids are checked already. */
export function readProfilesWithEmails(transport: Transport, ids: readonly string[]): CompanyWithEmails[] {
  const companies: Company[] = ids.map((companyHashId) => ({ companyHashId, emails: [], total: 0, next: 1 }));
  let stopped: ApiError | undefined;
  for (let wave = companies; wave.length > 0 && !stopped; wave = companies.filter((c) => c.next)) {
    const asked = wave.flatMap(pagesToAsk);
    const answers = transport.requestAll(
      asked.map(([company, page]) => specOf(company.companyHashId, page)),
      endsRun, // they say nothing about the company itself
    );
    stopped = answers.stopped;
    asked.forEach(([company, page], k) => record(company, page, answers.outcomes[k], stopped));
  }
  return companies.map(({ companyHashId, profile, emails, total, next, error }) => {
    error ??= next || !profile ? (stopped ?? transport.error(missingKeyInit('outreach'))) : undefined;
    return error || !profile
      ? { companyHashId, ok: false as const, error: error as ApiError }
      : { companyHashId, ok: true as const, profile, emails, total };
  });
}

/** The pages of one company this wave asks for (page 0: the profile), as far as its total announces. */
function pagesToAsk(company: Company): Array<[Company, number]> {
  const first = company.next as number;
  const last =
    first === 1
      ? 1
      : Math.min(
          first + PAGES_PER_WAVE - 1,
          Math.ceil(company.total / PROFILE_EMAILS_PAGE_SIZE),
          PROFILE_EMAILS_MAX_PAGES,
        );
  company.next = undefined;
  const pages: Array<[Company, number]> = [];
  for (let page = first === 1 ? 0 : first; page <= last; page++) pages.push([company, page]);
  return pages;
}

function specOf(id: string, page: number): RequestSpec<CompanyProfile | ProfileEmailsPage> {
  return page === 0 ? profileSpec(id) : emailsSpec(id, { page, pageSize: PROFILE_EMAILS_PAGE_SIZE });
}

function record(
  company: Company,
  page: number,
  outcome: ReturnType<Transport['requestAll']>['outcomes'][number],
  stopped: ApiError | undefined,
): void {
  if (company.error) return;
  if (!outcome?.ok) {
    company.error = outcome?.error ?? stopped;
    company.next = undefined;
  } else if (page === 0) company.profile = outcome.value as CompanyProfile;
  else {
    const { emails, total } = outcome.value as ProfileEmailsPage;
    company.emails.push(...emails);
    if (page === 1) company.total = total;
    const more = emails.length > 0 && company.emails.length < company.total;
    company.next = more && page < PROFILE_EMAILS_MAX_PAGES ? page + 1 : undefined;
  }
}

export function profileSpec(id: string): RequestSpec<CompanyProfile> {
  return {
    method: 'get',
    path: OUTREACH_PATHS.profile(id),
    schema: CompanyProfileSchema(),
    notFound: 'company',
  };
}

/** A profileEmails request (no pageSize: the service's default). */
export function emailsSpec(id: string, query: ProfileEmailsOptions): RequestSpec<ProfileEmailsPage> {
  return {
    method: 'get',
    path: OUTREACH_PATHS.profileEmails(id),
    query: {
      keyword: query.keyword || undefined,
      page: query.page,
      pageSize: query.pageSize,
    },
    schema: ProfileEmailsPageSchema(),
    notFound: 'company',
  };
}
