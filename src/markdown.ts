import MarkdownIt from 'markdown-it';

// Rationales are Markdown built by the service around text from the register (mark texts, owner
// names), which stays inside code spans. Rendering is still locked down, so that no stored text can
// ever become markup: raw HTML is off (shown as text), bare URLs are not turned into links, and
// markdown-it's own link check refuses javascript:, vbscript:, file: and data: URLs (but images).
const renderer = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Text as the renderer escapes it in HTML (&, <, > and "). */
export const escapeHtml: (text: string) => string = renderer.utils.escapeHtml;

/** A link's URL as the renderer writes it into href (percent-encoded), before HTML escaping. */
export function normalizeLink(url: string): string {
  return renderer.normalizeLink(url);
}

/** Safe HTML for a rationale (or any Markdown the service stored). */
export function renderMarkdown(markdown: string): string {
  return renderer.render(markdown);
}

type Token = ReturnType<MarkdownIt['parse']>[number];

function inlineText(children: readonly Token[]): string {
  let out = '';
  const links: string[] = [];
  for (const token of children) {
    if (token.type === 'text' || token.type === 'code_inline') out += token.content;
    else if (token.type === 'softbreak') out += ' ';
    else if (token.type === 'hardbreak') out += '\n';
    else if (token.type === 'link_open') links.push(token.attrGet('href') ?? '');
    else if (token.type === 'link_close') {
      const href = links.pop();
      if (href) out += ` (${href})`;
    }
  }
  return out;
}

/**
 * The same Markdown as plain text, for places that show no formatting (a CSV cell): the words and
 * literal texts, a link as "text (url)", one line per paragraph or list item ("- " before items).
 */
export function markdownToPlain(markdown: string): string {
  const lines: string[] = [];
  let item = false;
  for (const token of renderer.parse(markdown, {})) {
    if (token.type === 'list_item_open') item = true;
    else if (token.type === 'inline') {
      lines.push(`${item ? '- ' : ''}${inlineText(token.children ?? [])}`);
      item = false;
    }
  }
  return lines.join('\n');
}
