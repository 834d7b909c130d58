// Public surface of the API layer: features import from here.
export * from './errors';
export * from './outreach-schemas';
export * from './phone-schemas';
export * from './phone-number';
export {
  OutreachClient,
  outreachClientFromSettings,
  OUTREACH_PATHS,
  PROFILE_EMAILS_PAGE_SIZE,
  type OutreachClientOptions,
  type ProfileEmailsOptions,
  type CompanyWithEmails,
} from './outreach-client';
export {
  PhoneClient,
  phoneClientFromSettings,
  PHONE_PATHS,
  type PhoneCheckStatus,
  type PhoneCheckResult,
  type PhoneCheckManyResult,
  type PhoneClientOptions,
} from './phone-client';
export type { Outcome } from './http';
