// The constants the build writes into dist/Code.js (dev/build/service-addresses.mjs): code that reads the
// settings (platform/settings.ts) reads SERVICE_ADDRESSES, so a test of it imports this first.
Object.assign(globalThis, {
  SERVICE_ADDRESSES: {
    outreach: 'https://api.outreach.example.com',
    phone: 'https://api.phonecheck.example.com',
  },
  URL_FETCH_ALLOWLIST: ['https://api.outreach.example.com/', 'https://api.phonecheck.example.com/'],
});
