// Public surface of the API layer: features import from here.
export * from './errors';
export { OUTREACH_PATHS } from './outreach/outreach-paths';
export * from './error-texts';
export * from './outreach/problem';
export * from './phone/phone-codes';
export * from './transport/redact';
export * from './outreach/outreach-schemas';
export * from './outreach/email-schemas';
export { charCount, LIMITS } from './outreach/schema-parts';
export * from './phone/phone-schemas';
export * from './phone/phone-number';
export {
  OutreachClient,
  PROFILE_EMAILS_PAGE_SIZE,
  type OutreachClientOptions,
  type ProfileEmailsOptions,
  type CompanyWithEmails,
} from './outreach/outreach-client';
export {
  PhoneClient,
  PHONE_PATHS,
  type PhoneCheckStatus,
  type PhoneCheckResult,
  type PhoneCheckManyResult,
  type PhoneClientOptions,
} from './phone/phone-client';
export type { Outcome } from './transport/request-spec';
