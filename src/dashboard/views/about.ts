import { html } from '../html.ts';
import { layout, pageHeader, type Viewer } from './layout.ts';

// Where the register data comes from, with the credit each office's terms ask for wherever its
// data is shown (README, "Register data: sources and credits"). Linked from every page's footer.

export function aboutPage(o: { viewer: Viewer | null }) {
  return layout({
    title: 'Data sources',
    viewer: o.viewer,
    body: html`${pageHeader('Register data: sources and credits', {
      lead: 'Trademark Watch compares your brands with a mirror of the trademark registers. The records are the offices’ own; where an office does not publish a field, it is shown as not published, never filled in.',
    })}
    <section class="card" aria-labelledby="source-uspto">
      <h2 id="source-uspto">United States: USPTO</h2>
      <p>Records of the United States Patent and Trademark Office (Trademark Applications Daily and Annual XML, TSDR). Works of the US Government, in the public domain (17 U.S.C. §105). Each record links to its page in <a href="https://tsdr.uspto.gov/">USPTO TSDR</a>.</p>
    </section>
    <section class="card" aria-labelledby="source-euipo">
      <h2 id="source-euipo">European Union: EUIPO</h2>
      <p>Source of the EU trade mark data: the European Union Intellectual Property Office (EUIPO). The data is freely available from EUIPO at <a href="https://euipo.europa.eu/eSearch/">eSearch</a> and through <a href="https://www.tmdn.org/tmview/">TMview</a>. Each EU trade mark links to its page in EUIPO eSearch.</p>
    </section>
    <section class="card" aria-labelledby="source-cipo">
      <h2 id="source-cipo">Canada: CIPO</h2>
      <p>Contains data licensed by Her Majesty the Queen in right of Canada, as represented by the Minister of Industry, the minister responsible for the administration of the Canadian Intellectual Property Office.</p>
      <p>The Canadian Intellectual Property Office does not warrant the accuracy of its data; a record CIPO corrects is replaced when its weekly files are loaded again. Each Canadian record links to its page in the <a href="https://ised-isde.canada.ca/cipo/trademark-search/srch">Canadian Trademarks Database</a>.</p>
    </section>
    <section class="card" aria-labelledby="source-wipo">
      <h2 id="source-wipo">International registrations: WIPO</h2>
      <p>International registrations (Madrid system) link to their page in <a href="https://www3.wipo.int/madrid/monitor/">WIPO Madrid Monitor</a>.</p>
    </section>`,
  });
}
