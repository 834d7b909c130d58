// features/phone: what other folders use of it (the only file they import).
export { formulasMaySpend, setFormulasMaySpend } from './formula-spending';
export { checkSelectedPhones } from './phone-check';
export { phoneCheckFunction, phoneCreditsFunction } from './phone-functions';
export { PHONE_JOB, type PhoneData, type PhoneUnit } from './phone-job';
