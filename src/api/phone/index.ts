// api/phone: what other folders use of it (the only file they import).
export {
  type PhoneCheckManyResult,
  type PhoneCheckResult,
  PhoneClient,
  type PhoneClientOptions,
} from './phone-client';
export { normalizePhone, type PhoneNormalization } from './phone-number';
