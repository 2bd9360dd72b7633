import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { usptoDaily } from '../../src/register/feeds.ts';
import { parseHtmlListing } from '../../src/register/listing.ts';

const PAGE = 'https://mirror.example/trademark/dailyxml/applications/';

describe('HTML listing of a feed', () => {
  it('resolves relative, root-relative and absolute links against the page', () => {
    const html = `
      <a href="apc260101.zip">apc260101.zip</a>
      <A HREF='/trademark/dailyxml/applications/apc260102.zip'>x</A>
      <a class="f" href=https://cdn.example/files/apc260103.zip>y</a>`;
    assert.deepEqual(parseHtmlListing(html, PAGE, usptoDaily), [
      { name: 'apc260101.zip', url: `${PAGE}apc260101.zip`, date: '2026-01-01' },
      { name: 'apc260102.zip', url: `${PAGE}apc260102.zip`, date: '2026-01-02' },
      {
        name: 'apc260103.zip',
        url: 'https://cdn.example/files/apc260103.zip',
        date: '2026-01-03',
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
