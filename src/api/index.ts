// Public surface of the API layer: features import from here.
export * from './errors';
export * from './error-texts';
export * from './problem';
export * from './phone-codes';
export * from './redact';
export * from './outreach-schemas';
export * from './email-schemas';
export { charCount, LIMITS } from './schema-parts';
export * from './phone-schemas';
export * from './phone-number';
export {
  OutreachClient,
  OUTREACH_PATHS,
  PROFILE_EMAILS_PAGE_SIZE,
  type OutreachClientOptions,
  type ProfileEmailsOptions,
  type CompanyWithEmails,
} from './outreach-client';
export {
  PhoneClient,
  PHONE_PATHS,
  type PhoneCheckStatus,
  type PhoneCheckResult,
  type PhoneCheckManyResult,
  type PhoneClientOptions,
} from './phone-client';
export type { Outcome } from './request-spec';
