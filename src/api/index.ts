// api: what other folders use of it (the only file they import).
export {
  FETCH_CALLS_PER_DAY,
  FETCH_CALLS_PER_DAY_WORKSPACE,
  fetchQuotaInit,
  missingKeyInit,
  timeUpInit,
} from './error-texts';
export { ApiError, endsRun, isForLater, runEffect } from './errors';
export {
  type Balance,
  charCount,
  cleanLine,
  cleanNickname,
  type CompanyProfile,
  type CompanyWithEmails,
  type ContactEmail,
  ISO_COUNTRY_CODES,
  isValidEmail,
  LIMITS,
  type MailDetail,
  type MailRecord,
  OutreachClient,
  type OutreachClientOptions,
  type PersonalizedEmail,
  type SearchRequest,
  type SearchRow,
  type SendPersonalizedResponse,
  type Task,
  usableEdm,
} from './outreach';
export {
  normalizePhone,
  type PhoneCheckManyResult,
  type PhoneCheckResult,
  PhoneClient,
  type PhoneClientOptions,
  type PhoneNormalization,
} from './phone';
export { redact } from './transport';
