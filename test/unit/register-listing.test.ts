import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayCarryApiKey, usptoDaily } from '../../src/register/feeds.ts';
import {
  listingFormat,
  parseHtmlListing,
  parseListing,
  parseOdpListing,
} from '../../src/register/listing.ts';

const PAGE = 'https://mirror.example/trademark/dailyxml/applications/';

describe('HTML listing of a feed', () => {
  it('resolves relative, root-relative and absolute links against the page', () => {
    const html = `
      <a href="apc260101.zip">apc260101.zip</a>
      <A HREF='/trademark/dailyxml/applications/apc260102.zip'>x</A>
      <a class="f" href=https://cdn.example/files/apc260103.zip>y</a>`;
    assert.deepEqual(parseHtmlListing(html, PAGE, usptoDaily), [
      { name: 'apc260101.zip', url: `${PAGE}apc260101.zip`, date: '2026-01-01', backfill: false },
      { name: 'apc260102.zip', url: `${PAGE}apc260102.zip`, date: '2026-01-02', backfill: false },
      {
        name: 'apc260103.zip',
        url: 'https://cdn.example/files/apc260103.zip',
        date: '2026-01-03',
        backfill: false,
      },
    ]);
  });

  it('ignores names the feed does not know, sort links and other schemes', () => {
    const html = `
      <a href="../">Parent Directory</a> <a href="?C=M;O=D">Last modified</a>
      <a href="apc260101.zip.md5">md5</a> <a href="apc18840407-20251231-01.zip">annual</a>
      <a href="asg260101.zip">assignments</a> <a href="ftp://x/apc260104.zip">ftp</a>
      <a href="apc261399.zip">not a date</a> <a href="mailto:a@b.c">mail</a>`;
    assert.deepEqual(parseHtmlListing(html, PAGE, usptoDaily), []);
  });

  it('lists a name linked twice once, sorted by date whatever the page order', () => {
    const html = `<a href="apc260105.zip">5</a><a href="apc251231.zip">old</a>
      <a href="apc260105.zip#top">again</a><a href="apc260103.zip?download=1">3</a>`;
    assert.deepEqual(
      parseHtmlListing(html, PAGE, usptoDaily).map((f) => [f.name, f.url]),
      [
        ['apc251231.zip', `${PAGE}apc251231.zip`],
        ['apc260103.zip', `${PAGE}apc260103.zip?download=1`],
        ['apc260105.zip', `${PAGE}apc260105.zip`],
      ],
    );
  });

  it('decodes character references in a link', () => {
    const html = '<a href="get?f=apc260101.zip&amp;x=1">q</a><a href="apc&#50;60102.zip">e</a>';
    assert.deepEqual(
      parseHtmlListing(html, PAGE, usptoDaily).map((f) => f.name),
      ['apc260102.zip'],
    );
  });
});

const API = 'https://api.uspto.gov/api/v1/datasets/products/TRTDXFAP';
const FILES = 'https://api.uspto.gov/api/v1/datasets/products/files/TRTDXFAP';

/** A file entry with the fields of the portal's product answer. */
const entry = (fileName: string, fileDownloadURI?: string) => ({
  fileName,
  fileSize: 1_234_567,
  fileDataFromDate: '2026-01-02',
  fileDataToDate: '2026-01-02',
  fileTypeText: 'Data',
  fileDownloadURI,
  fileReleaseDate: '2026-01-02 00:02:57',
  fileLastModifiedDateTime: '2026-01-02 00:02:59',
});
const product = (...entries: unknown[]) =>
  JSON.stringify({
    count: 1,
    bulkDataProductBag: [
      {
        productIdentifier: 'TRTDXFAP',
        productFileBag: { count: entries.length, fileDataBag: entries },
      },
    ],
  });

describe('Open Data Portal listing of a feed', () => {
  it("takes each known file's name and download URI, oldest first (the portal lists newest first)", () => {
    const json = product(
      entry('apc260102.zip', `${FILES}/2026/apc260102.zip`),
      entry('apc251231.zip', `${FILES}/2025/apc251231.zip`),
    );
    assert.deepEqual(parseOdpListing(json, API, usptoDaily), [
      {
        name: 'apc251231.zip',
        url: `${FILES}/2025/apc251231.zip`,
        date: '2025-12-31',
        backfill: false,
      },
      {
        name: 'apc260102.zip',
        url: `${FILES}/2026/apc260102.zip`,
        date: '2026-01-02',
        backfill: false,
      },
    ]);
  });

  it('resolves a relative download URI against the listing and keeps http(s) only', () => {
    const json = product(
      entry('apc260101.zip', 'files/apc260101.zip'),
      entry('apc260102.zip', 'ftp://mirror.example/apc260102.zip'),
    );
    assert.deepEqual(
      parseOdpListing(json, 'http://127.0.0.1:8080/odp/', usptoDaily).map((f) => f.url),
      ['http://127.0.0.1:8080/odp/files/apc260101.zip'],
    );
  });

  it('ignores names the feed does not know, entries without a URI and a name listed twice', () => {
    const json = product(
      entry('apc18840407-20251231-01.zip', `${FILES}/annual.zip`),
      entry('apc260103.zip'),
      entry('apc260104.zip', `${FILES}/2026/apc260104.zip`),
      entry('apc260104.zip', `${FILES}/2026/again.zip`),
      { fileName: 42, fileDownloadURI: `${FILES}/x.zip` },
      'not an entry',
    );
    assert.deepEqual(
      parseOdpListing(json, API, usptoDaily).map((f) => [f.name, f.url]),
      [['apc260104.zip', `${FILES}/2026/apc260104.zip`]],
    );
  });

  it('reads a bare product too, and a product without files as an empty listing', () => {
    const bare = JSON.stringify({
      productFileBag: { fileDataBag: [entry('apc260101.zip', `${FILES}/apc260101.zip`)] },
    });
    assert.equal(parseOdpListing(bare, API, usptoDaily).length, 1);
    assert.deepEqual(parseOdpListing('{"count":0,"bulkDataProductBag":[]}', API, usptoDaily), []);
  });

  const REFUSED: [string, string, RegExp][] = [
    ['text that is not JSON', '{"count": 1,', /not valid JSON/],
    ['an error answer', '{"code":403,"error":"Forbidden"}', /not an Open Data Portal product/],
    ['a JSON array', '[{"fileName":"apc260101.zip"}]', /not an Open Data Portal product/],
  ];
  for (const [what, text, message] of REFUSED) {
    it(`${what} is an error, not an empty feed`, () => {
      assert.throws(() => parseOdpListing(text, API, usptoDaily), message);
    });
  }
});

describe('listing format', () => {
  const CASES: [string | undefined, string, 'html' | 'odp-json'][] = [
    ['application/json', '{}', 'odp-json'],
    ['application/json; charset=utf-8', '{}', 'odp-json'],
    ['application/problem+json', '{}', 'odp-json'],
    ['text/html; charset=UTF-8', '<html>', 'html'],
    ['text/html', '  {"looks": "like json"}', 'html'],
    [undefined, ' \n{"count":1}', 'odp-json'],
    ['text/plain', '<!DOCTYPE html><a href="apc260101.zip">', 'html'],
    ['application/octet-stream', '{"bulkDataProductBag":[]}', 'odp-json'],
    [undefined, '', 'html'],
  ];
  for (const [contentType, text, format] of CASES) {
    it(`${contentType ?? 'no content type'} with ${JSON.stringify(text.trim().slice(0, 12))} is ${format}`, () => {
      assert.equal(listingFormat(text, contentType), format);
    });
  }

  it('parseListing reads each format with its parser', () => {
    const html = '<a href="apc260101.zip">x</a>';
    const json = product(entry('apc260101.zip', `${FILES}/apc260101.zip`));
    assert.deepEqual(
      parseListing(html, 'text/html', PAGE, usptoDaily).map((f) => f.url),
      [`${PAGE}apc260101.zip`],
    );
    assert.deepEqual(
      parseListing(json, 'application/json', API, usptoDaily).map((f) => f.url),
      [`${FILES}/apc260101.zip`],
    );
  });
});

describe('where the API key may go', () => {
  const listing = new URL(API);
  const CASES: [string, string, boolean][] = [
    ['the listing itself', API, true],
    ['a file URI of the same origin', `${FILES}/2026/apc260101.zip`, true],
    ['another host (a CDN a redirect leads to)', 'https://d1.cloudfront.example/apc.zip', false],
    ['the same host over http', 'http://api.uspto.gov/x', false],
    ['the same host on another port', 'https://api.uspto.gov:8443/x', false],
    ['a subdomain', 'https://files.api.uspto.gov/x', false],
  ];
  for (const [what, target, allowed] of CASES) {
    it(`${what}: ${allowed ? 'yes' : 'no'}`, () => {
      assert.equal(mayCarryApiKey(new URL(target), listing), allowed);
    });
  }

  it('a mirror over plain http gets it only on this machine (not across a network in clear)', () => {
    for (const [base, allowed] of [
      ['http://127.0.0.1:8080/odp', true],
      ['http://localhost:8080/odp', true],
      ['http://[::1]:8080/odp', true],
      ['http://mirror.example/odp', false],
      ['https://mirror.example/odp', true],
    ] as const) {
      assert.equal(mayCarryApiKey(new URL(`${base}/f.zip`), new URL(base)), allowed, base);
    }
  });
});
