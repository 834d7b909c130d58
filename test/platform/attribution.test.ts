// src/platform/attribution.ts: the install id, version, runtime and channel headers sent to the outreach API.
import {
  ATTRIBUTION_HEADERS,
  CHANNEL_PROPERTY,
  INSTALL_ID_PROPERTY,
  attributionHeaders,
  parseChannel,
} from '../../src/platform/attribution';
import { ADDON_VERSION } from '../../src/platform/version';
import { useGas } from '../api/gas-fakes';

const gas = useGas();

describe('attribution headers', () => {
  const KEYS = ['outreach-key-123456', 'phone-key-654321'];

  test('install id made once and kept; version and runtime sent', () => {
    const first = attributionHeaders(KEYS);
    const id = gas.userProps.get(INSTALL_ID_PROPERTY);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(first).toEqual({
      'X-Svc-Install-Id': id,
      'X-Svc-Skill-Version': ADDON_VERSION,
      'X-Svc-Skill-Runtime': 'google-apps-script',
    });
    expect(attributionHeaders(KEYS)['X-Svc-Install-Id']).toBe(id);
  });

  test('a damaged install id: no attribution headers at all, nothing overwritten', () => {
    gas.userProps.set(INSTALL_ID_PROPERTY, 'not-a-uuid');
    expect(attributionHeaders(KEYS)).toEqual({});
    expect(gas.userProps.get(INSTALL_ID_PROPERTY)).toBe('not-a-uuid');
  });

  test('channel headers only when a channel is configured', () => {
    gas.scriptProps.set(
      CHANNEL_PROPERTY,
      JSON.stringify({
        sourceType: 'wrapper',
        sourcePackage: 'sheets-pack',
        channelCode: 'ch-7',
        campaignId: 'spring',
      }),
    );
    const headers = attributionHeaders(KEYS);
    expect(headers[ATTRIBUTION_HEADERS.sourceType]).toBe('wrapper');
    expect(headers[ATTRIBUTION_HEADERS.sourcePackage]).toBe('sheets-pack');
    expect(headers[ATTRIBUTION_HEADERS.channelCode]).toBe('ch-7');
    expect(headers[ATTRIBUTION_HEADERS.campaignId]).toBe('spring');
  });

  test.each([
    ['damaged JSON', '{"sourceType": "wrap'],
    ['not an object', '["a"]'],
    ['an e-mail address', JSON.stringify({ sourceType: 'wrapper', channelCode: 'me@example.com' })],
    ['an API key', JSON.stringify({ sourceType: 'wrapper', campaignId: 'outreach-key-123456' })],
    ['a non-text value', JSON.stringify({ sourceType: 7 })],
    ['control characters', JSON.stringify({ sourceType: 'a\nb' })],
  ])('%s → no X-Svc-Source-* headers, the request still goes', (_, raw) => {
    gas.scriptProps.set(CHANNEL_PROPERTY, raw);
    const headers = attributionHeaders(KEYS);
    expect(Object.keys(headers).sort()).toEqual([
      'X-Svc-Install-Id',
      'X-Svc-Skill-Runtime',
      'X-Svc-Skill-Version',
    ]);
  });

  test('parseChannel keeps only present fields', () => {
    expect(parseChannel(JSON.stringify({ channelCode: 'c1', campaignId: '' }), [])).toEqual({
      channelCode: 'c1',
    });
    expect(parseChannel('{}', [])).toBeUndefined();
    expect(parseChannel(null, [])).toBeUndefined();
  });

  test('no properties service: no headers, no throw', () => {
    delete (globalThis as Record<string, unknown>).PropertiesService;
    expect(attributionHeaders(KEYS)).toEqual({});
  });
});
