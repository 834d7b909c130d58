// api/outreach: what other folders use of it (the only file they import).
export {
  isValidEmail,
  type MailDetail,
  type MailRecord,
  type PersonalizedEmail,
  type SendPersonalizedResponse,
  type Task,
} from './email-schemas';
export { OutreachClient, type OutreachClientOptions } from './outreach-client';
export {
  type Balance,
  type CompanyProfile,
  type ContactEmail,
  ISO_COUNTRY_CODES,
  type SearchRequest,
  type SearchRow,
  usableEdm,
} from './outreach-schemas';
export { type CompanyWithEmails } from './profiles-with-emails';
export { charCount, cleanLine, cleanNickname, LIMITS } from './schema-parts';
