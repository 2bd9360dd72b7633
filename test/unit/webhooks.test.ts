import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { isPublicAddress } from '../../src/webhooks/address-policy.ts';
import { refusedUrlReason } from '../../src/webhooks/http-post.ts';
import {
  MAX_ATTEMPTS,
  nextRetryDelaySeconds,
  RETRY_DELAYS_SECONDS,
} from '../../src/webhooks/retry-schedule.ts';
import { generateWebhookSecret, signatureHeaders } from '../../src/webhooks/signing.ts';

describe('webhook address policy', () => {
  const refused = [
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback range'],
    ['10.1.2.3', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local, the cloud metadata address'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'IPv6 unique local'],
    ['fd00:ec2::254', 'the IPv6 metadata address'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['not-an-address', 'not an address at all'],
  ];
  for (const [address, why] of refused) {
    it(`refuses ${address} (${why})`, () => assert.equal(isPublicAddress(address ?? ''), false));
  }
  for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    it(`allows the public address ${address}`, () => assert.equal(isPublicAddress(address), true));
  }
});

describe('webhook URL rules', () => {
  const reason = (url: string, allowPrivate = false) =>
    refusedUrlReason(new URL(url), allowPrivate);
  it('https to a host name is allowed (its addresses are checked when it is sent)', () =>
    assert.equal(reason('https://hooks.example.com/tm'), null));
  it('http is refused unless private URLs are allowed', () => {
    assert.match(String(reason('http://hooks.example.com/')), /https/);
    assert.equal(reason('http://hooks.example.com/', true), null);
  });
  it('other schemes are refused even when private URLs are allowed', () =>
    assert.match(String(reason('ftp://hooks.example.com/', true)), /http/));
  it('IP literals of private ranges are refused', () => {
    assert.match(String(reason('https://127.0.0.1/')), /not a public address/);
    assert.match(String(reason('https://[::1]:8443/')), /not a public address/);
    assert.match(String(reason('https://169.254.169.254/latest')), /not a public address/);
    assert.equal(reason('http://127.0.0.1:8080/', true), null);
  });
  it('credentials in the URL are refused', () =>
    assert.match(String(reason('https://user:pw@hooks.example.com/')), /credentials/));
});

describe('webhook retry schedule', () => {
  it('grows: seconds, then minutes, then hours', () => {
    const delays = [...RETRY_DELAYS_SECONDS];
    for (let i = 1; i < delays.length; i++) {
      assert.ok((delays[i] ?? 0) >= (delays[i - 1] ?? 0), `delay ${i} does not shrink`);
    }
    assert.equal(delays[0], 5);
    assert.ok((delays.at(-1) ?? 0) >= 3600);
  });
  it('spans about a day in all', () => {
    const total = RETRY_DELAYS_SECONDS.reduce((sum, d) => sum + d, 0);
    assert.ok(total > 20 * 3600 && total < 36 * 3600, `${total} s`);
  });
  it('gives no further attempt after the last', () => {
    assert.equal(nextRetryDelaySeconds(1), 5);
    assert.equal(nextRetryDelaySeconds(MAX_ATTEMPTS - 1), RETRY_DELAYS_SECONDS.at(-1));
    assert.equal(nextRetryDelaySeconds(MAX_ATTEMPTS), null);
  });
});

describe('webhook signing', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    assert.match(secret, /^whsec_/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    assert.notEqual(generateWebhookSecret(), secret);
  });
  it('signs id.timestamp.body so that the Standard Webhooks verifier accepts it', () => {
    const secret = generateWebhookSecret();
    const body = '{"type":"alert.created","timestamp":"2026-11-22T09:30:00.000Z","data":{}}';
    const headers = signatureHeaders(secret, 'msg_1', body, new Date());
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(secret).verify(`${body} `, headers));
  });
});
