// platform: what other folders use of it (the only file they import).
export { attributionHeaders, ensureInstallId } from './attribution';
export { cached, cacheKey, utf8Bytes } from './cache';
export { CUSTOM_FUNCTION_LIMIT_MS, Deadline, executionEnd } from './deadline';
export { carriesMark, documentMark, existingMark, TAG_RANDOM_CHARS } from './document-mark';
export { deleteLarge, readLarge, writeLarge } from './large-property';
export { withDocumentLock } from './locks';
export { ownershipOf, ownerStamp, type OwnerStamp, userToken } from './owner';
export { packText, unpackText } from './packed-text';
export { count, formatCount, plural } from './plural';
export {
  readDocumentPreference,
  readPreference,
  saveDocumentPreference,
  savePreference,
} from './preferences';
export { RateBudget, RateDeadlineError } from './rate-budget';
export { missingScopes, promptForScopes, refusedScope, type ScopeName, SCOPES } from './scopes';
export {
  keepReplacedKeys,
  keyOf,
  maskKey,
  readSettings,
  restoreDefaultAddresses,
  saveSettings,
  type Service,
  type Settings,
  type SettingsPatch,
  type SettingsView,
  takeReplacedKey,
  viewSettings,
} from './settings';
export { parseObject, ShardedStore, type ShardFormat, type StoredEntry } from './sharded-store';
export { sheetRecords } from './sheet-records';
export { splitEvery } from './split-every';
export { DAY_MS, HOUR_MS, MINUTE_MS } from './time';
export {
  createHourlyTrigger,
  deleteTriggers,
  listedClockTrigger,
  needsReauthorization,
  triggerById,
} from './triggers';
export { allowedPrefixesText, isAllowedBaseUrl } from './url-allowlist';
