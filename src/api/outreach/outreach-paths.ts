// Paths of the outreach service's endpoints (docs/services.md), parameters encoded.
export const OUTREACH_PATHS = {
  balance: '/api/v1/credit/balance',
  search: '/api/v1/companies/search-advanced',
  unlock: '/api/v1/companies/unlock',
  profile: (id: string) => `/api/v1/companies/${encodeURIComponent(id)}/profile`,
  profileEmails: (id: string) => `/api/v1/companies/${encodeURIComponent(id)}/profileEmails`,
  sendPersonalized: '/api/v1/emails/send/personalized',
  tasks: '/api/v1/emails/tasks',
  mails: '/api/v1/emails/mails',
  mail: (id: number) => `/api/v1/emails/mails/${id}`,
} as const;
