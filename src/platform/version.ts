// The add-on's version, sent as X-Svc-Skill-Version. Keep it equal to package.json's "version" (a test
// checks it): rollup has no JSON plugin, so the bundle cannot read package.json itself.
export const ADDON_VERSION = '1.0.0';
